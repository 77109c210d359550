import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../src/ingest/index.ts';
import { parsePdf, removeFurniture, type PdfLine } from '../../src/ingest/pdf.ts';
import { IngestError } from '../../src/ingest/transcript.ts';
import { PDF_HEADER, longInterview, makePdf, pdfFromPages, sampleInterview } from '../support/fixtures.ts';
import { norm, said, isIngestError } from '../support/ingest.ts';


describe('parsePdf: fixtures round-trip', () => {
  it('"NAME: text" turns: same speakers (as written, upper case) and texts, in order, with pages', async () => {
    const turns = sampleInterview();
    const transcript = await parseTranscript(await makePdf(turns));
    assert.equal(transcript.format, 'pdf');
    assert.deepEqual(
      transcript.utterances.map((u) => [u.speaker, norm(u.text)]),
      turns.map((t) => [t.speaker.toUpperCase(), norm(t.text)]),
    );
    const pages = transcript.utterances.map((u) => u.page ?? 0);
    assert.equal(pages[0], 1);
    assert.ok((pages.at(-1) ?? 0) > 1, 'the fixture spans several pages');
    assert.deepEqual(pages, [...pages].sort((a, b) => a - b));
  });

  it('"Q:"/"A:" turns across many pages: headers and page numbers removed, nothing lost', async () => {
    const turns = longInterview(6500);
    const bytes = await makePdf(turns, { qa: true });
    const utterances = await parsePdf(bytes);
    assert.deepEqual(
      utterances.map((u) => [u.speaker, norm(u.text)]),
      turns.map((t, i) => [i % 2 === 0 ? 'Interviewer' : 'Respondent', norm(t.text)]),
    );
    for (const u of utterances) assert.ok(!u.text.includes('confidential'), 'running header leaked');
    assert.ok((utterances.at(-1)?.page ?? 0) >= 8);
  });
  // How fast that is: bench/parsers.ts (BENCHMARKS.md), never asserted here.
});

describe('parsePdf: layout', () => {
  it('a Q/A turn continues across a page break (spans: where its page 2 begins); front matter names Q and A; furniture is dropped', async () => {
    const bytes = await pdfFromPages(
      [
        ['Interviewer: Dana Reyes', 'Respondent: Sam Okafor', 'Q: How do you feel about remote', 'work in general?', 'A: I always work from home, because', 'the office is noisy. Remote Work: it is'],
        ['just better for me and my', 'family, honestly.', 'Q: And coffee?'],
        ['A: Two cups, never decaf.'],
      ],
      { header: 'ACME Research — Interview 7 — confidential', footer: (n, total) => `Page ${n} of ${total}` },
    );
    assert.deepEqual(await parsePdf(bytes), [
      { speaker: 'Dana Reyes', text: 'How do you feel about remote work in general?', page: 1 },
      {
        speaker: 'Sam Okafor',
        text: 'I always work from home, because the office is noisy. Remote Work: it is just better for me and my family, honestly.',
        page: 1,
        spans: [
          { at: 0, page: 1 },
          { at: 73, page: 2 },
        ],
      },
      { speaker: 'Dana Reyes', text: 'And coffee?', page: 2 },
      { speaker: 'Sam Okafor', text: 'Two cups, never decaf.', page: 3 },
    ]);
  });

  it('title-case "Name:" and upper-case "INTERVIEWER:" prefixes; prose before the first speaker stays speakerless', async () => {
    const bytes = await pdfFromPages(
      [['Transcript of a conversation recorded in Lagos.', '', 'INTERVIEWER: Who influenced you?', 'Sam Okafor: My grandmother. She ran', 'a shop for forty years.'], ['INTERVIEWER: And now?', 'Sam Okafor: My team.']],
      { footer: (n) => `- ${n} -` },
    );
    assert.deepEqual(said(await parsePdf(bytes)), [
      [null, 'Transcript of a conversation recorded in Lagos.'],
      ['INTERVIEWER', 'Who influenced you?'],
      ['Sam Okafor', 'My grandmother. She ran a shop for forty years.'],
      ['INTERVIEWER', 'And now?'],
      ['Sam Okafor', 'My team.'],
    ]);
  });

  it('transcription-tool headers ("Speaker 1 0:03" lines) open timed turns', async () => {
    const bytes = await pdfFromPages([['Speaker 1 0:03', 'Why running?', 'Speaker 2 0:07', 'It clears my head. We', 'meet on Monday', 'Monday 9:30'], ['Speaker 1 1:02:03', 'Thanks.']]);
    assert.deepEqual(await parsePdf(bytes), [
      { speaker: 'Speaker 1', text: 'Why running?', start: 3, page: 1 },
      { speaker: 'Speaker 2', text: 'It clears my head. We meet on Monday Monday 9:30', start: 7, page: 1 },
      { speaker: 'Speaker 1', text: 'Thanks.', start: 3723, page: 2 },
    ]);
  });

  it('removes page-number lines in their usual forms, but only at the top or bottom of a page', () => {
    const line = (text: string, y: number): PdfLine => ({ text, y, x0: 72, x1: 300, size: 11 });
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const pages = ['3', 'Page 3', '3 of 10', '- 3 -', '3/10'].map((footer, i) => [
      line(`A: I ran ${words[i]}`, 700),
      line(`and ${words[i]} kept`, 686),
      line('2', 672),
      line(`marathons ${words[i]}`, 658),
      line(footer, 40),
    ]);
    removeFurniture(pages).forEach((kept, i) => {
      assert.deepEqual(kept.map((l) => l.text), [`A: I ran ${words[i]}`, `and ${words[i]} kept`, '2', `marathons ${words[i]}`]);
    });
  });

  it('keeps a one-page document intact apart from its page number', async () => {
    const bytes = await pdfFromPages([['Dana Reyes: Hello?', 'Sam Okafor: Hi.', 'Dana Reyes: Bye.']], { header: PDF_HEADER, footer: () => '1' });
    assert.deepEqual(said(await parsePdf(bytes)), [
      [null, PDF_HEADER],
      ['Dana Reyes', 'Hello?'],
      ['Sam Okafor', 'Hi.'],
      ['Dana Reyes', 'Bye.'],
    ]);
  });
});

describe('PDF hostile and empty input', () => {
  it('password-protected PDFs are corrupt_file with a clear message', async () => {
    const bytes = await pdfFromPages([['Q: Secret?', 'A: Yes.']], { userPassword: 'hunter2' });
    await assert.rejects(parseTranscript(bytes), (err: unknown) => {
      assert.ok(err instanceof IngestError);
      assert.equal(err.code, 'corrupt_file');
      assert.match(err.message, /password/);
      return true;
    });
  });

  it('a PDF without text is an empty transcript', async () => {
    await assert.rejects(parseTranscript(await pdfFromPages([[], []])), isIngestError('empty_transcript'));
  });

  it('garbage after the header is corrupt_file', async () => {
    await assert.rejects(parseTranscript(Buffer.from('%PDF-1.7\nnot a pdf at all\n')), isIngestError('corrupt_file'));
  });

  it('truncated and damaged PDFs reject with an IngestError (or yield what is readable), never crash or hang', { timeout: 60_000 }, async () => {
    const pdf = await makePdf(sampleInterview());
    const variants: Buffer[] = [];
    for (let cut = 8; cut < pdf.length; cut += Math.ceil(pdf.length / 12)) variants.push(pdf.subarray(0, cut));
    for (let i = 1; i <= 12; i++) {
      const damaged = Buffer.from(pdf);
      for (let at = 64 + i * 17; at < damaged.length; at += 97 * i) damaged[at] = (damaged[at] ?? 0) ^ 0x55;
      variants.push(damaged);
    }
    for (const bytes of variants) {
      try {
        const transcript = await parseTranscript(bytes);
        assert.ok(transcript.utterances.every((u) => u.text !== ''));
      } catch (err) {
        assert.ok(err instanceof IngestError, String(err));
      }
    }
  });
});
