/**
 * `npm run eval:panels [dir] [--questions FILE] [--out EVAL.md] [--no-write]`
 *
 * Typed answers (panels) of the offline engine over the interviews (../shared/data/interviews/
 * changelog next to the repository unless a folder is given) and eval/panels/questions.json:
 * each on-topic question answered by a mind built from the transcript without the guest's turn
 * that holds the answer (held out) and, as an upper bound, by the whole transcript; off-topic
 * questions asked of every whole mind (they should all be no_evidence). Minds are built in this
 * process as a snapshot builds them (the memory bank, its passages embedded by the sentence encoder),
 * no service; the engine is the service's own (GroundedEngine over a Searcher with the committed
 * parameters). Writes the "Panels (typed answers)" section of EVAL.md. Nothing here is tuned: the
 * typed thresholds were chosen on these questions once, before the rule not to, and are kept as
 * they were (EVAL.md says so).
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GroundedEngine } from '../src/engines/grounded.ts';
import { TYPED_THRESHOLDS } from '../src/engines/grounded-questions.ts';
import type { Question, TypedAnswer } from '../src/engines/questions.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import type { MindMemory } from '../src/memory/mind-memory.ts';
import type { Turn } from '../testkit/fixtures.ts';
import { embeddedMemories, testSearcher } from '../testkit/minds.ts';
import { interviewsDir, readInterviews, REPO_ROOT, shownPath, type Interview } from './interviews.ts';
import { loadQuestions, problems, quotedTurn, DEFAULT_QUESTIONS, type OnTopicQuestion } from './panels/questions.ts';
import { renderPanels, writeSection, type ConditionResult, type PanelReport } from './panels/report.ts';
import { baselines, correct, withinOne } from './panels/score.ts';
import { loadJudgements, tallyContradictions, writeToJudge, type ContradictionTally } from './panels/judgements.ts';
import { corpusTurns, scenarioYesNo, transferYesNo } from './panels/yes-no-sets.ts';

function options(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      questions: { type: 'string', default: DEFAULT_QUESTIONS },
      out: { type: 'string', default: path.join(REPO_ROOT, 'EVAL.md') },
      'no-write': { type: 'boolean', default: false },
      'to-judge': { type: 'string' },
    },
  });
  return { dir: interviewsDir(positionals[0]), questions: path.resolve(values.questions), out: path.resolve(values.out), write: !values['no-write'], toJudge: values['to-judge'] };
}

interface Timed {
  answer: TypedAnswer;
  ms: number;
}

/** The service's engine over the committed parameters; the minds' passages embedded by the same encoder. */
const engine = new GroundedEngine(testSearcher());

async function timed(mind: MindMemory, q: Question): Promise<Timed> {
  const t0 = performance.now();
  const answer = await engine.answerQuestion({ mindName: '', memory: mind, question: q });
  return { answer, ms: performance.now() - t0 };
}

/** A mind of the guest's words in these turns, as a snapshot builds it: memories, passages and their stored vectors. */
async function mindOf(key: string, turns: readonly Turn[], guest: string): Promise<MindMemory> {
  const bank = buildMemoryBank({ utterances: turns.map((t) => ({ speaker: t.speaker, text: t.text })), mindName: guest, speaker: guest });
  return embeddedMemories(key, bank.memories.map((m) => ({ ...m, snapshotId: 'eval' })));
}

function condition(name: string, questions: readonly OnTopicQuestion[], answers: readonly TypedAnswer[], offTopic: readonly TypedAnswer[]): ConditionResult {
  const answered = answers.filter((a) => a.status === 'answered').length;
  const right = questions.filter((q, i) => correct(q, answers[i] as TypedAnswer)).length;
  const likert = questions.map((q, i) => [q, answers[i]] as const).filter(([q, a]) => q.type === 'likert' && a?.status === 'answered');
  const byType = new Map<string, { n: number; answered: number; right: number }>();
  questions.forEach((q, i) => {
    const e = byType.get(q.type) ?? { n: 0, answered: 0, right: 0 };
    e.n++;
    if (answers[i]?.status === 'answered') e.answered++;
    if (correct(q, answers[i] as TypedAnswer)) e.right++;
    byType.set(q.type, e);
  });
  return {
    name,
    questions: questions.length,
    answered,
    right,
    likertWithinOne: likert.filter(([q, a]) => withinOne(q, a as TypedAnswer)).length,
    likertAnswered: likert.length,
    offTopic: offTopic.length,
    offTopicDeclined: offTopic.filter((a) => a.status === 'no_evidence').length,
    byType: [...byType].map(([type, e]) => ({ type, ...e })),
  };
}

/**
 * Typed answers that contradict their quoted evidence (eval/panels/judgements.ts): the panel
 * questions (held out and whole), the 22 interviews' other-industry scenarios asked as yes/no of
 * the whole minds, and the transfer set's asked as yes/no of their corpus people's minds.
 */
async function contradictionSets(onTopic: readonly OnTopicQuestion[], first: { held: Timed[]; full: Timed[] }, whole: ReadonlyMap<string, MindMemory>): Promise<ContradictionTally[]> {
  const judged = loadJudgements();
  const pairs = (answers: readonly Timed[]) => onTopic.map((q, i) => [q, (answers[i] as Timed).answer] as const);
  const scenarios: Array<readonly [Question, TypedAnswer]> = [];
  for (const item of scenarioYesNo()) {
    const mind = whole.get(item.file);
    if (mind) scenarios.push([item.question, (await timed(mind, item.question)).answer]);
  }
  const transfer: Array<readonly [Question, TypedAnswer]> = [];
  const transferMinds = new Map<string, MindMemory>();
  for (const item of transferYesNo()) {
    const key = `${item.file}:${item.person}`;
    let mind = transferMinds.get(key);
    if (!mind) transferMinds.set(key, (mind = await mindOf(`transfer-${key}`, corpusTurns(item.file), item.person)));
    transfer.push([item.question, (await timed(mind, item.question)).answer]);
  }
  return [
    tallyContradictions('panel questions, held-out passage', pairs(first.held), judged),
    tallyContradictions('panel questions, whole transcript', pairs(first.full), judged),
    tallyContradictions('22 interviews: other-industry scenarios as yes/no', scenarios, judged),
    tallyContradictions('transfer set (validation people) as yes/no', transfer, judged),
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const opts = options(process.argv.slice(2));
  const interviews = readInterviews(opts.dir);
  const byFile = new Map<string, Interview>(interviews.map((i) => [i.file, i]));
  const { onTopic, offTopic } = loadQuestions(opts.questions);
  const wrong = onTopic.flatMap((q) => problems(q, byFile));
  if (wrong.length) throw new Error(`questions with problems:\n${wrong.join('\n')}`);

  // Minds: one per whole transcript, one per held-out turn (the guest's turn holding the quote removed).
  let buildMs = 0;
  const build = async (key: string, interview: Interview, drop: number): Promise<MindMemory> => {
    const t0 = performance.now();
    const mind = await mindOf(key, interview.turns.filter((_, i) => i !== drop), interview.guest);
    buildMs += performance.now() - t0;
    return mind;
  };
  await build('warm-up', interviews[0] as Interview, -1); // loads wink-nlp and the encoder: not a mind's cost
  await timed(await build('warm-up', interviews[0] as Interview, -1), onTopic[0] as Question);
  buildMs = 0;
  const whole = new Map<string, MindMemory>();
  for (const i of interviews) whole.set(i.file, await build(i.file, i, -1));
  const wholeBuildMs = buildMs / whole.size;
  const heldOut = new Map<string, MindMemory>();
  const heldOutMinds: MindMemory[] = [];
  for (const q of onTopic) {
    const interview = byFile.get(q.file) as Interview;
    const turn = quotedTurn(interview, q.quote);
    const key = `${q.file}#${turn}`;
    let mind = heldOut.get(key);
    if (!mind) heldOut.set(key, (mind = await build(key, interview, turn)));
    heldOutMinds.push(mind);
  }

  const run = async () => {
    const held: Timed[] = [];
    const full: Timed[] = [];
    const off: Timed[] = [];
    for (const [i, q] of onTopic.entries()) held.push(await timed(heldOutMinds[i] as MindMemory, q));
    for (const q of onTopic) full.push(await timed(whole.get(q.file) as MindMemory, q));
    for (const i of interviews) for (const q of offTopic) off.push(await timed(whole.get(i.file) as MindMemory, q));
    return { held, full, off };
  };

  const first = await run();
  const all = [...first.held, ...first.full, ...first.off];
  const msPerAnswer = all.reduce((s, x) => s + x.ms, 0) / all.length;
  // A panel: every whole mind answers every question (on- and off-topic), each mind built once.
  const panelQuestions: Question[] = [...onTopic, ...offTopic];
  const panelStart = performance.now();
  let panelAnswers = 0;
  let panelBuildMs = 0;
  for (const i of interviews) {
    const t0 = performance.now();
    const mind = await mindOf(`panel-${i.file}`, i.turns, i.guest);
    panelBuildMs += performance.now() - t0;
    for (const q of panelQuestions) {
      await engine.answerQuestion({ mindName: '', memory: mind, question: q });
      panelAnswers++;
    }
  }
  const panelMs = performance.now() - panelStart;
  const contradictions = await contradictionSets(onTopic, first, whole);
  if (opts.toJudge) console.log(`${writeToJudge(opts.toJudge, contradictions)} answers to judge written to ${opts.toJudge}`);
  const base = baselines(onTopic);
  const report: PanelReport = {
    date: new Date().toISOString().slice(0, 10),
    command: `npm run eval:panels${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}`,
    dir: shownPath(opts.dir),
    questionsFile: shownPath(opts.questions),
    interviews: interviews.length,
    files: new Set(onTopic.map((q) => q.file)).size,
    onTopic: onTopic.length,
    offTopicQuestions: offTopic.length,
    types: Object.fromEntries(['single', 'multiple', 'likert', 'number'].map((t) => [t, onTopic.filter((q) => q.type === t).length])),
    conditions: [
      condition('held-out passage', onTopic, first.held.map((x) => x.answer), first.off.map((x) => x.answer)),
      condition('whole transcript (upper bound)', onTopic, first.full.map((x) => x.answer), first.off.map((x) => x.answer)),
    ],
    majority: base.majority.reduce((s, x) => s + x, 0) / onTopic.length,
    random: base.random.reduce((s, x) => s + x, 0) / onTopic.length,
    msPerAnswer,
    maxMs: Math.max(...all.map((x) => x.ms)),
    buildMs: wholeBuildMs,
    meanSentences: [...whole.values()].reduce((s, m) => s + m.size, 0) / whole.size,
    panel: { minds: interviews.length, questions: panelQuestions.length, answers: panelAnswers, ms: panelMs, buildMs: panelBuildMs },
    thresholds: TYPED_THRESHOLDS,
    contradictions,
    seconds: (performance.now() - started) / 1000,
    rows: onTopic.map((q, i) => ({ q, held: first.held[i]?.answer as TypedAnswer, full: first.full[i]?.answer as TypedAnswer })),
  };
  const section = renderPanels(report);
  console.log(section);
  if (opts.write) {
    writeSection(opts.out, section);
    console.log(`\nwritten to ${shownPath(opts.out)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
