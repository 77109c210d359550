import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../src/ingest/index.ts';
import { parseDocx } from '../../src/ingest/docx.ts';
import { IngestError } from '../../src/ingest/transcript.ts';
import { docxFromParagraphs, longInterview, makeDocx, sampleInterview, teamsVtt } from '../support/fixtures.ts';
import { norm, said, isIngestError } from '../support/ingest.ts';


describe('parseDocx', () => {
  it('round-trips the fixture: speakers, texts and header timestamps', async () => {
    const turns = sampleInterview();
    const transcript = await parseTranscript(await makeDocx(turns));
    assert.equal(transcript.format, 'docx');
    assert.deepEqual(
      transcript.utterances.map((u) => [u.speaker, norm(u.text)]),
      turns.map((t) => [t.speaker, norm(t.text)]),
    );
    // Header times are whole seconds of the times the VTT writers give the same turns.
    const vtt = (await parseTranscript(Buffer.from(teamsVtt(turns)))).utterances;
    assert.deepEqual(
      transcript.utterances.map((u) => u.start),
      vtt.map((u) => Math.floor(u.start ?? -1)),
    );
  });

  it('transcription-tool headers: "Speaker 1  0:03", tab separators, h:mm:ss, multi-paragraph turns, Rev style', async () => {
    const bytes = await docxFromParagraphs([
      'Interview with Sam Okafor',
      'Speaker 1  0:03',
      'So tell me about your mornings.',
      'Speaker 2\t0:09',
      'I always run first.',
      'Then coffee, two cups.',
      'Speaker 1  1:02:03',
      'Why two?',
      'Dana Reyes (01:02:05): Rev-style header with text.',
      'Sam Okafor [1:02:09]',
      'Habit.',
    ]);
    const utterances = await parseDocx(bytes);
    assert.deepEqual(utterances, [
      { speaker: null, text: 'Interview with Sam Okafor' },
      { speaker: 'Speaker 1', text: 'So tell me about your mornings.', start: 3 },
      { speaker: 'Speaker 2', text: 'I always run first. Then coffee, two cups.', start: 9 },
      { speaker: 'Speaker 1', text: 'Why two?', start: 3723 },
      { speaker: 'Dana Reyes', text: 'Rev-style header with text.', start: 3725 },
      { speaker: 'Sam Okafor', text: 'Habit.', start: 3729 },
    ]);
  });

  it('"Name: text" paragraphs; unlabelled paragraphs continue the turn; headings are not speakers', async () => {
    const bytes = await docxFromParagraphs([
      'Date: 3 March 2024',
      'Dana Reyes: What do you think about remote work?',
      "Sam Okafor: Here's the thing: I love it.",
      'I have worked from home since 2019.',
      'Note: the next part was inaudible.',
      'Dana Reyes: And the office?',
      'SAM OKAFOR: Once a week.',
      'Alex Kim: Sorry to jump in, we are out of time.',
    ]);
    assert.deepEqual(said(await parseDocx(bytes)), [
      [null, 'Date: 3 March 2024'],
      ['Dana Reyes', 'What do you think about remote work?'],
      ['Sam Okafor', "Here's the thing: I love it. I have worked from home since 2019. Note: the next part was inaudible."],
      ['Dana Reyes', 'And the office?'],
      ['SAM OKAFOR', 'Once a week.'],
      ['Alex Kim', 'Sorry to jump in, we are out of time.'],
    ]);
  });

  it('Q:/A: paragraphs become Interviewer/Respondent, or the names given in front matter', async () => {
    const plain = await docxFromParagraphs(['Q: Coffee?', 'A: Never decaf.', 'Q: Why?', 'A: Taste.']);
    assert.deepEqual(said(await parseDocx(plain)), [
      ['Interviewer', 'Coffee?'],
      ['Respondent', 'Never decaf.'],
      ['Interviewer', 'Why?'],
      ['Respondent', 'Taste.'],
    ]);
    const named = await docxFromParagraphs([
      'Interviewer: Dana Reyes',
      'Respondent: Sam Okafor',
      'Q: Coffee?',
      'A: Never decaf.',
      'Bottom Line: taste matters.',
    ]);
    assert.deepEqual(said(await parseDocx(named)), [
      ['Dana Reyes', 'Coffee?'],
      ['Sam Okafor', 'Never decaf. Bottom Line: taste matters.'],
    ]);
  });

  it('plain prose: one speakerless utterance per paragraph', async () => {
    const bytes = await docxFromParagraphs(['My story.', '', 'I grew up in Lagos. Here is the thing: I loved it.', 'Then I moved.']);
    assert.deepEqual(said(await parseDocx(bytes)), [
      [null, 'My story.'],
      [null, 'I grew up in Lagos. Here is the thing: I loved it.'],
      [null, 'Then I moved.'],
    ]);
  });

  // How fast is bench/parsers.ts's (BENCHMARKS.md); here, that a long document reads whole.
  it('a 6,500-word interview: every turn, in order', async () => {
    const turns = longInterview(6500);
    const transcript = await parseTranscript(await makeDocx(turns));
    assert.deepEqual(
      transcript.utterances.map((u) => [u.speaker, norm(u.text)]),
      turns.map((t) => [t.speaker, norm(t.text)]),
    );
  });
});

describe('DOCX hostile and empty input', () => {
  it('an empty document is an empty transcript', async () => {
    await assert.rejects(parseTranscript(await docxFromParagraphs(['', '   '])), isIngestError('empty_transcript'));
  });

  it('damaged document data is corrupt_file', async () => {
    const docx = await makeDocx(sampleInterview());
    // Overwrite the compressed bytes of word/document.xml, leaving the zip directory intact.
    const name = docx.indexOf('word/document.xml');
    const damaged = Buffer.from(docx);
    damaged.fill(0x41, name + 40, name + 400);
    await assert.rejects(parseTranscript(damaged), isIngestError('corrupt_file'));
  });

  it('truncated and bit-flipped files reject with an IngestError, never crash', { timeout: 60_000 }, async () => {
    const docx = await makeDocx(sampleInterview());
    const variants: Buffer[] = [];
    for (let cut = 0; cut < docx.length; cut += Math.ceil(docx.length / 15)) variants.push(docx.subarray(0, cut));
    for (let i = 1; i <= 25; i++) {
      const flipped = Buffer.from(docx);
      for (let at = i * 31; at < flipped.length; at += 211 + i) flipped[at] = (flipped[at] ?? 0) ^ 0xff;
      variants.push(flipped);
    }
    for (const bytes of variants) {
      try {
        const transcript = await parseTranscript(bytes);
        assert.ok(transcript.utterances.length > 0);
      } catch (err) {
        assert.ok(err instanceof IngestError, String(err));
      }
    }
  });

  it('a zip that declares a huge uncompressed document is refused before inflating', async () => {
    const docx = Buffer.from(await makeDocx(sampleInterview()));
    // Patch the central-directory "uncompressed size" of every entry to ~1 GB.
    for (let at = docx.indexOf('PK\x01\x02'); at >= 0; at = docx.indexOf('PK\x01\x02', at + 4)) docx.writeUInt32LE(0x40000000, at + 24);
    await assert.rejects(parseTranscript(docx), isIngestError('file_too_complex'));
  });
});
