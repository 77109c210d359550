/**
 * Each memory, and so each evidence item, is placed at its own words: from the start of the cue (or
 * timestamped paragraph) holding its first word to the end of the cue holding its last, on the page
 * where it begins, also when the parser merged several cues, paragraphs or pages into one utterance.
 * Real files built here go through the real parsers (parseTranscript) and the memory bank; one
 * monologue goes through upload (the stored memories) and simulate (the evidence).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseTranscript } from '../../src/ingest/index.ts';
import { collapsedSpans } from '../../src/ingest/spans.ts';
import { collapseWhitespace } from '../../src/ingest/speakers.ts';
import { buildMemoryBank } from '../../src/memory/build.ts';
import { docxFromParagraphs, pdfFromPages } from '../../testkit/fixtures.ts';
import { blobOf, waitFor } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';

/** [text, start, end, page] of each memory of the person, from the file's bytes. */
async function memoriesOf(bytes: Buffer, mindName: string): Promise<Array<[string, number | null, number | null, number | null]>> {
  const { utterances } = await parseTranscript(bytes);
  return buildMemoryBank({ utterances, mindName }).memories.map((m) => [m.text, m.start, m.end, m.page]);
}

const clock = (s: number) => {
  const whole = Math.floor(s);
  const ms = Math.round((s - whole) * 1000);
  return `00:${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}.${String(ms).padStart(3, '0')}`;
};

interface Cue {
  start: number;
  end: number;
  text: string;
  /** Written as a Teams voice tag or a Zoom "Name: " prefix; none for a monologue. */
  speaker?: string;
}

function vtt(cues: readonly Cue[], style: 'teams' | 'zoom' = 'teams'): Buffer {
  const payload = (c: Cue) => (!c.speaker ? c.text : style === 'teams' ? `<v ${c.speaker}>${c.text}</v>` : `${c.speaker}: ${c.text}`);
  return Buffer.from(`WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${clock(c.start)} --> ${clock(c.end)}\n${payload(c)}`).join('\n\n')}\n`);
}

/** A monologue of ten cues of ten seconds, one sentence each, close enough to be one paragraph. */
const MONOLOGUE = [
  'I grew up in a small fishing town on the coast.',
  'My father repaired boats in a shed behind our house.',
  'Every summer we sailed to the islands for two weeks.',
  'At school I was terrible at mathematics until a teacher changed that.',
  'Today I design wind turbines for offshore farms.',
  'The hardest part of the job is planning around the weather.',
  'I still sail whenever I get a free weekend.',
  'My daughter has started coming along and loves steering.',
  'We want to cross to Ireland together next year.',
  'Cooking for friends is how I relax after a long week.',
].map((text, i): Cue => ({ start: i * 10, end: i * 10 + 9.5, text }));

describe('memories from VTT without speakers', () => {
  it('one sentence per cue, merged into one paragraph: each sentence has its own cue’s start and end', async () => {
    const bytes = vtt(MONOLOGUE);
    assert.equal((await parseTranscript(bytes)).utterances.length, 1, 'the cues are merged into one utterance');
    assert.deepEqual(
      await memoriesOf(bytes, 'Sam Okafor'),
      MONOLOGUE.map((c) => [c.text, c.start, c.end, null]),
    );
  });

  it('several sentences per cue, sentences across cues, a fragment joined to the next cue’s sentence', async () => {
    const bytes = vtt([
      { start: 0, end: 6, text: 'I grew up by the sea. Every summer I sailed' },
      { start: 6.5, end: 12, text: 'with my father to the islands. Later I moved to the city. Honestly?' },
      { start: 12.5, end: 20, text: 'I studied engineering there for five years.' },
      { start: 20.5, end: 24, text: 'Yeah. Mm-hmm. It was the best decision of my life.' },
    ]);
    assert.equal((await parseTranscript(bytes)).utterances.length, 1);
    assert.deepEqual(await memoriesOf(bytes, 'Sam Okafor'), [
      ['I grew up by the sea.', 0, 6, null],
      ['Every summer I sailed with my father to the islands.', 0, 12, null],
      ['Later I moved to the city.', 6.5, 12, null],
      ['Honestly? I studied engineering there for five years.', 6.5, 20, null],
      ['It was the best decision of my life.', 20.5, 24, null],
    ]);
  });
});

describe('memories from VTT with speakers', () => {
  const cues: Cue[] = [
    { speaker: 'Dana Reyes', start: 0, end: 4, text: 'What got you into engineering?' },
    { speaker: 'Sam Okafor', start: 5, end: 11, text: 'My father repaired boats when I was small.' },
    { speaker: 'Sam Okafor', start: 11, end: 18, text: 'I spent every weekend in his shed. He let me fix the outboard motors' },
    { speaker: 'Sam Okafor', start: 18, end: 24, text: 'once I was twelve.' },
    { speaker: 'Dana Reyes', start: 25, end: 28, text: 'And after school?' },
    { speaker: 'Sam Okafor', start: 102, end: 113.5, text: 'I studied mechanical engineering in Glasgow.' },
    { speaker: 'Sam Okafor', start: 114, end: 120, text: 'Then I joined a company that builds wind farms.' },
  ];
  for (const style of ['teams', 'zoom'] as const) {
    it(`a turn merged from several cues (${style}): each sentence from its first word’s cue to its last word’s cue`, async () => {
      const bytes = vtt(cues, style);
      const turns = (await parseTranscript(bytes)).utterances;
      assert.deepEqual(
        turns.map((u) => [u.speaker, u.start, u.end]),
        [['Dana Reyes', 0, 4], ['Sam Okafor', 5, 24], ['Dana Reyes', 25, 28], ['Sam Okafor', 102, 120]],
      );
      assert.deepEqual(await memoriesOf(bytes, 'Sam Okafor'), [
        ['My father repaired boats when I was small.', 5, 11, null],
        ['I spent every weekend in his shed.', 11, 18, null],
        ['He let me fix the outboard motors once I was twelve.', 11, 24, null],
        ['I studied mechanical engineering in Glasgow.', 102, 113.5, null],
        ['Then I joined a company that builds wind farms.', 114, 120, null],
      ]);
    });
  }
});

describe('memories from DOCX with timestamps', () => {
  it('a speaker’s timed paragraphs in a row are one turn: each sentence has the time above its paragraph (DOCX gives no ends)', async () => {
    const bytes = await docxFromParagraphs([
      'Interview with Sam Okafor',
      'Dana Reyes  0:00',
      'What got you into engineering?',
      'Sam Okafor  0:05',
      'My father repaired boats when I was small. I spent every weekend in his shed.',
      'He let me fix the  outboard\tmotors, which was a big deal.',
      'Sam Okafor  0:40',
      'Then I studied mechanical engineering in Glasgow.',
      'Dana Reyes  1:10',
      'And now?',
      'Sam Okafor  1:15',
      'Now I design wind turbines for offshore farms.',
    ]);
    const turns = (await parseTranscript(bytes)).utterances;
    assert.deepEqual(
      turns.map((u) => [u.speaker, u.start]),
      [[null, undefined], ['Dana Reyes', 0], ['Sam Okafor', 5], ['Dana Reyes', 70], ['Sam Okafor', 75]],
    );
    assert.deepEqual(await memoriesOf(bytes, 'Sam Okafor'), [
      ['My father repaired boats when I was small.', 5, null, null],
      ['I spent every weekend in his shed.', 5, null, null],
      ['He let me fix the outboard motors, which was a big deal.', 5, null, null],
      ['Then I studied mechanical engineering in Glasgow.', 40, null, null],
      ['Now I design wind turbines for offshore farms.', 75, null, null],
    ]);
  });
});

describe('memories from PDF pages', () => {
  it('a turn across a page break: each sentence has the page where it begins', async () => {
    const bytes = await pdfFromPages([
      [
        'Q: What got you into engineering?',
        'A: My father repaired boats when I was small. I spent every',
        'weekend in his shed. He let me fix the outboard',
      ],
      ['motors once I was twelve. Later I studied engineering in Glasgow.', 'Q: And now?', 'A: Now I design wind turbines for offshore farms.'],
    ]);
    assert.deepEqual(
      (await parseTranscript(bytes)).utterances.map((u) => [u.speaker, u.page]),
      [['Interviewer', 1], ['Respondent', 1], ['Interviewer', 2], ['Respondent', 2]],
    );
    assert.deepEqual(await memoriesOf(bytes, 'Sam Okafor'), [
      ['My father repaired boats when I was small.', null, null, 1],
      ['I spent every weekend in his shed.', null, null, 1],
      ['He let me fix the outboard motors once I was twelve.', null, null, 1],
      ['Later I studied engineering in Glasgow.', null, null, 2],
      ['Now I design wind turbines for offshore farms.', null, null, 2],
    ]);
  });
});

describe('spans through the whitespace clean-up', () => {
  it('each piece starts where its first kept character went; a piece left empty is dropped', () => {
    const text = '\u200b  One\u200b  two\t\tthree \u0007\u00a0 \ufefffour\u200b five  ';
    const at = (word: string) => text.indexOf(word);
    const spans = [
      { at: 0, start: 1 },
      { at: at('three'), start: 2 },
      { at: at('\ufefffour'), start: 3 },
      { at: at('\u200b five'), start: 4 },
      { at: at(' five'), start: 5 },
    ];
    const collapsed = collapseWhitespace(text);
    assert.equal(collapsed, 'One two three four five');
    assert.deepEqual(collapsedSpans(text, collapsed, spans, { start: 1 }), [
      { at: 0, start: 1 },
      { at: 8, start: 2 },
      { at: 14, start: 3 },
      { at: 19, start: 5 },
    ]);
    assert.equal(collapsedSpans('a  b', 'a b', [{ at: 0, page: 1 }, { at: 1, page: 1 }], { page: 1 }), undefined, 'one place, the utterance’s own');
  });
});

describe('evidence times through the API', () => {
  let srv: Service;
  before(async () => {
    srv = await startService({ LOG_LEVEL: 'silent' });
  });
  after(() => srv?.close());

  it('each evidence item of a monologue runs from its first sentence’s cue to its last one’s', async () => {
    const sdk = srv.sdk();
    const { mind } = await sdk.minds.create({ name: 'Sam Okafor' });
    const created = await sdk.snapshots.create(mind.id, { file: blobOf(vtt(MONOLOGUE)), fileName: 'monologue.vtt' });
    assert.equal((await waitFor(sdk, mind.id, created.mindAssessmentId)).status, 'completed');
    const stored = await srv.ctx.store.db
      .selectFrom('memories')
      .select(['text', 'start_s', 'end_s'])
      .where('snapshot_id', '=', created.mindAssessmentId)
      .orderBy('seq')
      .execute();
    assert.deepEqual(
      stored.map((m) => [m.text, m.start_s, m.end_s]),
      MONOLOGUE.map((c) => [c.text, c.start, c.end]),
      'the stored memories (the same columns as before) hold each sentence’s own cue times',
    );
    const starts: number[] = [];
    for (const message of ['What is the hardest part of designing wind turbines for offshore farms?', 'Did your father repair boats?']) {
      const { evidence } = await sdk.simulate({ mindId: mind.id, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message } });
      for (const item of evidence) {
        // Evidence quotes whole sentences, here each one cue.
        const first = MONOLOGUE.find((c) => item.text.startsWith(c.text));
        const last = MONOLOGUE.find((c) => item.text.endsWith(c.text));
        assert.ok(first && last, item.text);
        assert.deepEqual([item.start, item.end], [first.start, last.end], item.text);
        starts.push(first.start);
      }
    }
    assert.ok(
      starts.some((s) => s > 0),
      'some evidence begins after the first cue (before, every item reported the paragraph’s start, 0)',
    );
  });
});
