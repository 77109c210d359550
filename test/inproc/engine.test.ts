import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../src/ingest/transcript.ts';
import type { StoredMemory } from '../../src/memory/types.ts';
import type { Engine, SimulationInput } from '../../src/engines/types.ts';
import { buildMemoryBank } from '../../src/memory/build.ts';
import { GroundedEngine, UNKNOWN_SAYING } from '../../src/engines/grounded.ts';
import { embeddedMemories, testSearcher } from '../../testkit/minds.ts';
import { DEFAULT_MODEL, EngineRegistry, MODEL_NAMES } from '../../src/engines/registry.ts';

const interview: Utterance[] = [
  { speaker: 'Interviewer', text: 'Thanks for coming in. How do you approach testing your code?', start: 1, end: 5 },
  {
    speaker: 'Dana Whitfield',
    text:
      'I always write the tests before I write the code. Shipping without tests makes me nervous, because bugs ' +
      'reach customers and then the whole team loses a weekend fixing them.',
    start: 5,
    end: 20,
  },
  { speaker: 'Interviewer', text: 'What happens when a deadline is close and the team wants to skip the tests?', start: 20, end: 25 },
  {
    speaker: 'Dana Whitfield',
    text:
      'I push back on skipping tests, even under deadline pressure. I would rather cut scope and ship a smaller ' +
      'release than ship untested code.',
    start: 25,
    end: 40,
  },
  { speaker: 'Interviewer', text: 'Mm-hmm. And how do you feel about meetings?', start: 40, end: 43 },
  {
    speaker: 'Dana Whitfield',
    text: 'Honestly, long meetings drain me. I usually decline meetings that have no agenda.',
    start: 43,
    end: 50,
  },
  { speaker: 'Interviewer', text: 'What do you do outside of work?', start: 50, end: 52 },
  {
    speaker: 'Dana Whitfield',
    text: 'I love hiking in the mountains with my kids. It is the best way for me to recharge after a hard week.',
    start: 52,
    end: 60,
  },
  { speaker: 'Interviewer', text: 'Is mentoring junior developers part of your job? It sounds like you enjoy it.', start: 60, end: 64 },
  {
    speaker: 'Dana Whitfield',
    text: 'Mentoring is the part of the job I enjoy most. I pair with junior developers every week on real tickets.',
    start: 64,
    end: 72,
  },
];

const bank = buildMemoryBank({ utterances: interview, mindName: 'Dana Whitfield' });
const memories: StoredMemory[] = bank.memories.map((m) => ({ ...m, snapshotId: 'snap-1' }));
const dana = await embeddedMemories('snap-1', memories);
const searcher = testSearcher();
const interviewerText = interview
  .filter((u) => u.speaker === 'Interviewer')
  .map((u) => u.text)
  .join(' ');

function input(scenario: string): SimulationInput {
  return { mindName: 'Dana Whitfield', memory: dana, scenario };
}

const relevantScenario = 'Your team wants to skip the tests to ship the release before the deadline. What do you do?';
const offTopicScenario = 'What is your favourite recipe for chocolate cake?';

test('a relevant scenario retrieves the right statements, with more confidence than an off-topic one', async () => {
  const engine = new GroundedEngine(searcher);
  const relevant = await engine.simulate(input(relevantScenario));
  const offTopic = await engine.simulate(input(offTopicScenario));
  const texts = relevant.evidence.map((e) => e.text);
  assert.match(texts[0] ?? '', /^I push back on skipping tests, even under deadline pressure\./, texts.join(' | '));
  assert.ok(relevant.confidence > offTopic.confidence);
  assert.ok(relevant.confidence >= 0.3, String(relevant.confidence));
  assert.match(relevant.analysis.saying, /skipping tests/);
  assert.ok(relevant.message.includes(relevant.analysis.saying));
  for (const part of Object.values(relevant.analysis)) assert.ok(part.length > 0);
});

test('an off-topic scenario gets an honest, low-confidence answer', async () => {
  const result = await new GroundedEngine(searcher).simulate(input(offTopicScenario));
  assert.ok(result.confidence < 0.05, String(result.confidence));
  assert.equal(result.analysis.saying, UNKNOWN_SAYING);
  assert.equal(result.message, UNKNOWN_SAYING);
  assert.match(result.analysis.acting, /No stated behaviour/);
  assert.deepEqual(result.evidence, []);
  // A chance match on one word ("team") is at most "the closest thing I've said", with low confidence.
  const football = await new GroundedEngine(searcher).simulate(input('Which football team do you support?'));
  assert.ok(football.confidence < 0.35, String(football.confidence));
  assert.ok(football.message === UNKNOWN_SAYING || football.message.startsWith("I haven't spoken to exactly this"), football.message);
});

test('each mind answers from its own memory', async () => {
  const engine = new GroundedEngine(searcher);
  const other: StoredMemory[] = [
    { seq: 0, text: 'I always bake bread on Sunday mornings.', question: null, speaker: null, start: null, end: null, page: null, snapshotId: 'snap-2' },
  ];
  const baker = await embeddedMemories('snap-2', other);
  const scenario = 'It is Sunday morning. What do you bake?';
  const result = await engine.simulate({ mindName: 'Baker', memory: baker, scenario });
  assert.deepEqual(result.evidence.map((e) => e.text), ['I always bake bread on Sunday mornings.']);
  // The mind's only sentence is the saying: acting still quotes the habit it states.
  assert.match(result.analysis.acting, /^What they do: "I always bake bread on Sunday mornings\."$/);
  const fromDana = await engine.simulate(input(scenario));
  assert.ok(!fromDana.evidence.some((e) => /bake/.test(e.text)));
  assert.ok(fromDana.confidence < result.confidence);
});

test('same input, same output (fresh engine or cached index)', async () => {
  const a = new GroundedEngine(searcher);
  const first = await a.simulate(input(relevantScenario));
  assert.deepEqual(await a.simulate(input(relevantScenario)), first);
  assert.deepEqual(await new GroundedEngine(testSearcher()).simulate(input(relevantScenario)), first);
  const shuffled = { ...input(relevantScenario), memory: await embeddedMemories('snap-1', [...memories].reverse()) };
  assert.deepEqual(await a.simulate(shuffled), first);
});

/** True when `text` is one or more consecutive memories of one answer, joined by spaces. */
function isPassage(text: string): boolean {
  return memories.some((m, i) => {
    let joined = m.text;
    for (let j = i + 1; joined.length < text.length && j < memories.length; j++) joined += ` ${memories[j]?.text}`;
    return joined === text;
  });
}

test("evidence is only the person's own words: contiguous passages, with source positions", async () => {
  const engine = new GroundedEngine(searcher);
  for (const scenario of [relevantScenario, 'How do you feel about a meeting with no agenda?', 'Would you mentor a junior developer?']) {
    const result = await engine.simulate(input(scenario));
    assert.ok(result.evidence.length > 0, scenario);
    for (const e of result.evidence) {
      assert.ok(isPassage(e.text), e.text);
      assert.ok(!interviewerText.includes(e.text));
      assert.equal(e.speaker, 'Dana Whitfield');
      assert.equal(e.snapshotId, 'snap-1');
      assert.equal(typeof e.start, 'number');
      assert.equal(typeof e.end, 'number');
      assert.ok(!('page' in e)); // null positions are omitted
      assert.ok(e.score >= 0 && e.score <= 1);
    }
  }
});

test('saying is in the first person and quotes the person, not the interviewer', async () => {
  const result = await new GroundedEngine(searcher).simulate(input('Would you mentor a junior developer?'));
  assert.match(result.analysis.saying, /\b(I|my|me)\b/);
  assert.match(result.analysis.saying, /Mentoring is the part of the job I enjoy most\./);
  assert.ok(!result.analysis.saying.includes('It sounds like you enjoy it'));
});

test('acting quotes what they say they do, thinking names the view in the third person outside the quotes', async () => {
  const engine = new GroundedEngine(searcher);
  const testing = await engine.simulate(input('A colleague hands you code to ship and the tests are not written yet.'));
  assert.match(testing.analysis.saying, /I always write the tests before I write the code\./);
  // The habit is the answer itself; acting quotes what else they do about it, in their words.
  assert.match(testing.analysis.acting, /What they do: "I push back on skipping tests, even under deadline pressure\."/);
  const meetings = await engine.simulate(input('You are invited to a two-hour meeting with no agenda.'));
  assert.match(meetings.analysis.saying, /I usually decline meetings that have no agenda\./);
  assert.doesNotMatch(meetings.analysis.acting, /decline meetings/, 'acting does not repeat the saying');
  const relevant = await engine.simulate(input(relevantScenario));
  assert.equal(relevant.analysis.thinking.split('"')[0]?.trim(), 'Shipping without tests makes them nervous, because bugs reach customers and then the whole team loses a weekend fixing them.');
  for (const r of [testing, meetings, relevant]) {
    assert.match(r.analysis.feeling, /^(Uneasy|Mixed|Matter-of-fact|Positive)\b/);
    for (const part of [r.analysis.thinking, r.analysis.feeling, r.analysis.acting]) {
      assert.doesNotMatch(part.replace(/"[^"]*"/g, ''), /\b(I|me|my)\b/, part);
      assert.doesNotMatch(part, /in terms of|act on the view above|warmth and conviction/);
    }
  }
});

test('registry: pro is the default, falls back to the grounded engine without an LLM', () => {
  const grounded: Engine = new GroundedEngine(searcher);
  const llm: Engine = { simulate: () => Promise.reject(new Error('not used')), answerQuestion: () => Promise.reject(new Error('not used')) };
  const offline = new EngineRegistry({ grounded });
  assert.equal(DEFAULT_MODEL, 'mind-reasoner-pro');
  assert.deepEqual(offline.resolve(), { model: 'mind-reasoner-standard', engine: grounded });
  assert.deepEqual(offline.resolve('mind-reasoner-pro'), { model: 'mind-reasoner-standard', engine: grounded });
  assert.equal(offline.resolve('gpt-4'), null);
  assert.deepEqual(
    offline.list().map((m) => [m.id, m.engine, m.available]),
    [
      ['mind-reasoner-standard', 'grounded', true],
      ['mind-reasoner-pro', 'llm', false],
    ],
  );
  const online = new EngineRegistry({ grounded, llm });
  assert.deepEqual(online.resolve('mind-reasoner-pro'), { model: 'mind-reasoner-pro', engine: llm });
  assert.equal(online.resolve('Mind-Reasoner-Pro'), null);
  assert.deepEqual(online.resolve('mind-reasoner-standard'), { model: 'mind-reasoner-standard', engine: grounded });
  assert.deepEqual(
    online.list().map((m) => m.id),
    [...MODEL_NAMES],
  );
  assert.ok(online.list().every((m) => m.available));
});
