/**
 * The offline engine on scenarios as users write them: in words the person never used, long and
 * context first, follow-ups that lean on earlier turns, and subjects the person never touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../src/ingest/transcript.ts';
import { buildMemoryBank } from '../../src/memory/build.ts';
import { MindMemory } from '../../src/memory/mind-memory.ts';
import { splitScenario } from '../../src/memory/search/scenario.ts';
import { embeddedMemories, embeddedMind, testSearcher } from '../../testkit/minds.ts';
import { GroundedEngine, UNKNOWN_SAYING } from '../../src/engines/grounded.ts';

const turns: Array<[string, string]> = [
  ['How do you think about designing for older people?', 'Elderly users need bigger buttons and fewer steps. I start with the smallest mobile screen and test every flow with my grandparents before anyone else sees it.'],
  ['What is your view on design systems?', "Design systems aren't just style guides. Once a product has more than a handful of screens, the inconsistency costs you more than building the system does, so I would rather pay for it early."],
  ['How did you grow your team?', 'Hiring too fast broke my last studio. Now I add one designer at a time, and every new person pairs with a lead for their first month.'],
  ['What do you do for fun?', 'I sail on weekends. Being out on the water clears my head like nothing else.'],
  ['How do you price your work?', 'I charge per project, never per hour, because hourly billing punishes you for being quick.'],
  ['How do you run research?', 'I interview five customers before I draw anything. Their words go on the wall, and every sketch has to answer one of them.'],
];
const utterances: Utterance[] = turns.flatMap(([q, a], i) => [
  { speaker: 'Host', text: q, start: i * 60, end: i * 60 + 5 },
  { speaker: 'Maya Chen', text: a, start: i * 60 + 5, end: i * 60 + 50 },
]);
const memories = buildMemoryBank({ utterances, mindName: 'Maya Chen' }).memories.map((m) => ({ ...m, snapshotId: 'snap-maya' }));
const hostWords = turns.map(([q]) => q).join(' ');

let built: Promise<MindMemory> | null = null;
const mind = (): Promise<MindMemory> => (built ??= embeddedMind(utterances, 'Maya Chen', 'snap-maya'));
const engine = new GroundedEngine(testSearcher());
const ask = async (scenario: string, priorTurns: string[] = []) =>
  engine.simulate({
    mindName: 'Maya Chen',
    memory: await mind(),
    scenario,
    ...(priorTurns.length ? { history: priorTurns.map((text) => ({ role: 'user' as const, text })) } : {}),
  });

test('a scenario in words the person never used finds the passage that means the same', async () => {
  const scenario = 'We are building a banking app for seniors who find smartphones confusing. Where would you begin?';
  const hybrid = await ask(scenario);
  assert.match(hybrid.evidence[0]?.text ?? '', /^Elderly users need bigger buttons/);
  assert.match(hybrid.analysis.saying, /^Elderly users need bigger buttons and fewer steps\./);
  // A six-answer mind is too small for confidence's absolute scale (fitted on full interviews), not for its order.
  assert.ok(hybrid.confidence > (await ask('Our city council wants to rezone farmland for housing. Would you vote for it?')).confidence);
});

test('a long, context-first scenario is answered from the passage that addresses its ask', async () => {
  const scenario =
    'Our product has grown to forty features built by three squads over two years, and customers keep telling us ' +
    'that every screen looks and behaves differently. Our CFO says a shared component library is a luxury until ' +
    'the next funding round. Should we invest in a design system now, or wait?';
  assert.equal(splitScenario(scenario).ask, 'Should we invest in a design system now, or wait?');
  const result = await ask(scenario);
  assert.match(result.evidence[0]?.text ?? '', /^Design systems aren't just style guides\./);
  assert.match(result.message, /^Design systems aren't just style guides\./);
  assert.ok(result.confidence >= 0.35, String(result.confidence));
});

test('a follow-up leans on the earlier turns of the conversation', async () => {
  const followUp = 'How significant has that been for you?';
  const alone = await ask(followUp);
  const earlier = ['Tell me about how you grew your studio and brought new people on board.'];
  const inConversation = await ask(followUp, earlier);
  // The search's best answer is the one about the earlier turn's subject. Whether the engine quotes it
  // or declines is the fitted P(on-topic)'s call: on a mind of six answers it sits near the line.
  const found = await engine.searcher.search(await mind(), followUp, earlier);
  assert.match((await mind()).memories[found?.ranking.answers[0]?.first ?? -1]?.text ?? '', /^Hiring too fast broke my last studio\./);
  assert.ok(inConversation.confidence > alone.confidence, `${inConversation.confidence} > ${alone.confidence}`);
});

test('a subject the person never touched gets low confidence (or the honest decline)', async () => {
  for (const scenario of [
    'Our city council wants to rezone farmland on the edge of town for housing. Would you vote for it?',
    'My knee aches after every long run while training for a marathon. Should I cut my mileage?',
  ]) {
    const result = await ask(scenario);
    assert.ok(result.confidence < 0.35, `${scenario}: ${result.confidence}`);
    assert.ok(result.message === UNKNOWN_SAYING || result.message.startsWith("I haven't spoken to exactly this"), result.message);
  }
  assert.ok((await ask('What is your favourite chocolate cake recipe?')).confidence < (await ask('How do you decide what to charge a client?')).confidence);
});

test("the saying is one contiguous stretch of the person's own turn, never the interviewer's", async () => {
  const texts = memories.map((m) => m.text);
  for (const scenario of ['How do you decide what to charge a client?', 'A founder asks how many customers to talk to before sketching.', 'How do you like to spend your weekends?']) {
    const { analysis, evidence } = await ask(scenario);
    assert.notEqual(analysis.saying, UNKNOWN_SAYING, scenario);
    // The quoted passage is the first evidence item: consecutive memories of one answer, joined.
    const passage = evidence[0]?.text ?? '';
    const first = texts.findIndex((t) => passage.startsWith(t));
    assert.ok(first >= 0, passage);
    let joined = texts[first] ?? '';
    for (let j = first + 1; joined.length < passage.length; j++) joined += ` ${texts[j]}`;
    assert.equal(joined, passage);
    assert.ok(memories.slice(first).every((m, i, all) => i === 0 || m.question === all[0]?.question || joined.length <= passage.length));
    assert.ok(!hostWords.includes(analysis.saying.slice(0, 30)), analysis.saying);
  }
});

test('same scenario, same answer (determinism across separately built memories)', async () => {
  const scenario = 'We are building a banking app for seniors who find smartphones confusing. Where would you begin?';
  assert.deepEqual(await ask(scenario), await ask(scenario));
  const shuffled = await embeddedMemories('snap-maya', [...memories].reverse());
  assert.deepEqual(await engine.simulate({ mindName: 'Maya Chen', memory: shuffled, scenario }), await ask(scenario));
});

test('the passage quoted is the window of the answer where the retrieved sentences weigh most, holding the best one', async () => {
  const memory = await mind();
  const first = memory.memories.findIndex((m) => m.text.startsWith('Hiring too fast'));
  const [a, b, c] = [first, first + 1, first + 2];
  const words = (memory.words[a] ?? 0) + 1; // room for about one sentence
  assert.deepEqual(memory.passage(b, words), [b], 'unweighted: from the best sentence onwards');
  assert.deepEqual(memory.passage(b, words, (d) => (d === a ? 1 : 0)), [a, b], 'an earlier sentence that weighs more moves the window back');
  assert.equal(memory.passage(b, words, (d) => (d === c ? 1 : 0))[0], b, 'a later one leaves it starting at the best');
});
