/**
 * `npm run eval:panels [dir] [--questions FILE] [--out EVAL.md] [--no-write] [--sweep]`
 *
 * Typed answers (panels) of the offline engine over the interviews (../shared/data/interviews/
 * changelog next to the repository unless a folder is given) and eval/panels/questions.json:
 * each on-topic question answered by a mind built from the transcript without the guest's turn
 * that holds the answer (held out) and, as an upper bound, by the whole transcript; off-topic
 * questions asked of every whole mind (they should all be no_evidence). Minds are built in this
 * process as a snapshot builds them (eval/ceiling-features.ts `memoryOf`), no service. Writes the
 * "Panels (typed answers)" section of EVAL.md; `--sweep` prints the thresholds' grid used to
 * calibrate them (on these same questions).
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { answerTyped, TYPED_THRESHOLDS, type TypedThresholds } from '../src/engines/grounded-questions.ts';
import type { Question, TypedAnswer } from '../src/engines/questions.ts';
import { MindMemory } from '../src/memory/mind-memory.ts';
import { memoryOf } from './ceiling-features.ts';
import { interviewsDir, readInterviews, REPO_ROOT, shownPath, type Interview } from './interviews.ts';
import { loadQuestions, problems, quotedTurn, DEFAULT_QUESTIONS, type OnTopicQuestion } from './panels/questions.ts';
import { renderPanels, writeSection, type ConditionResult, type PanelReport } from './panels/report.ts';
import { baselines, correct, withinOne } from './panels/score.ts';

function options(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      questions: { type: 'string', default: DEFAULT_QUESTIONS },
      out: { type: 'string', default: path.join(REPO_ROOT, 'EVAL.md') },
      'no-write': { type: 'boolean', default: false },
      sweep: { type: 'boolean', default: false },
    },
  });
  return { dir: interviewsDir(positionals[0]), questions: path.resolve(values.questions), out: path.resolve(values.out), write: !values['no-write'], sweep: values.sweep };
}

interface Timed {
  answer: TypedAnswer;
  ms: number;
}

function timed(mind: MindMemory, q: Question, t: Readonly<TypedThresholds>): Timed {
  const t0 = performance.now();
  const answer = answerTyped(mind, q, t);
  return { answer, ms: performance.now() - t0 };
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
  const build = (key: string, interview: Interview, drop: number): MindMemory => {
    const t0 = performance.now();
    const mind = MindMemory.build(key, memoryOf(interview.turns.filter((_, i) => i !== drop), interview.guest));
    buildMs += performance.now() - t0;
    return mind;
  };
  build('warm-up', interviews[0] as Interview, -1); // loads wink-nlp and the word vectors: not a mind's cost
  buildMs = 0;
  const whole = new Map(interviews.map((i) => [i.file, build(i.file, i, -1)]));
  const wholeBuildMs = buildMs / whole.size;
  const heldOut = new Map<string, MindMemory>();
  const heldOutMind = (q: OnTopicQuestion): MindMemory => {
    const interview = byFile.get(q.file) as Interview;
    const turn = quotedTurn(interview, q.quote);
    const key = `${q.file}#${turn}`;
    let mind = heldOut.get(key);
    if (!mind) heldOut.set(key, (mind = build(key, interview, turn)));
    return mind;
  };
  const heldOutMinds = onTopic.map(heldOutMind);

  const run = (t: Readonly<TypedThresholds>) => {
    const held = onTopic.map((q, i) => timed(heldOutMinds[i] as MindMemory, q, t));
    const full = onTopic.map((q) => timed(whole.get(q.file) as MindMemory, q, t));
    const off = interviews.flatMap((i) => offTopic.map((q) => timed(whole.get(i.file) as MindMemory, q, t)));
    return { held, full, off };
  };

  if (opts.sweep) {
    console.log('declineBelow optionMargin | held-out acc cov | whole acc cov | off-topic declined');
    for (const declineBelow of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5])
      for (const optionMargin of [0.05, 0.1, 0.15]) {
        const t = { ...TYPED_THRESHOLDS, declineBelow, optionMargin };
        const r = run(t);
        const h = condition('h', onTopic, r.held.map((x) => x.answer), r.off.map((x) => x.answer));
        const f = condition('f', onTopic, r.full.map((x) => x.answer), []);
        const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(0) : '–').padStart(3);
        console.log(
          `${declineBelow.toFixed(2)} ${optionMargin.toFixed(2)} | ${pct(h.right, h.answered)}% ${pct(h.answered, h.questions)}% | ${pct(f.right, f.answered)}% ${pct(f.answered, f.questions)}% | ${pct(h.offTopicDeclined, h.offTopic)}%`,
        );
      }
    return;
  }

  // The reported run: warm once (per-question preparation and per-mind caches are real panel behaviour too, but the first figures are what is reported).
  const first = run(TYPED_THRESHOLDS);
  const all = [...first.held, ...first.full, ...first.off];
  const msPerAnswer = all.reduce((s, x) => s + x.ms, 0) / all.length;
  // A panel: every whole mind answers every question (on- and off-topic), each mind built once.
  const panelQuestions: Question[] = [...onTopic, ...offTopic];
  const panelStart = performance.now();
  let panelAnswers = 0;
  let panelBuildMs = 0;
  for (const i of interviews) {
    const t0 = performance.now();
    const mind = MindMemory.build(`panel-${i.file}`, memoryOf(i.turns, i.guest));
    panelBuildMs += performance.now() - t0;
    for (const q of panelQuestions) {
      answerTyped(mind, q);
      panelAnswers++;
    }
  }
  const panelMs = performance.now() - panelStart;
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
