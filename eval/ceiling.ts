/**
 * The ceiling of the offline engine's own signals (`npm run eval:ceiling`): how well could ANY
 * linear ranking of what retrieval measures about a candidate answer (BM25, word-vector
 * similarity, coverage, question match, length…) do, when its weights are fitted on the very
 * scenarios and held-out questions it is scored on? That in-sample fit is an optimistic bound
 * for re-weighting these signals; leave-one-person-out cross-validation is the honest estimate
 * of what re-weighting would give on new people. In process (no HTTP): the memory is built from
 * the transcript the way a snapshot is, then ranked the way the engine does.
 *
 *   npm run eval:ceiling -- [--dir ../shared/data/interviews/changelog] [--per 8] [--seed 7] [--out EVAL-CEILING.md]
 *
 * --per and --seed default to `npm run eval`'s, so the held-out questions are the same ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MindMemory } from '../src/memory/mind-memory.ts';
import { retrieve } from '../src/memory/retrieval.ts';
import { wordVectors } from '../src/memory/word-vectors.ts';
import { candidatesOf, features, FEATURES, memoryOf, type Candidate } from './ceiling-features.ts';
import { firstGain, fitRanker, rankBy, top3, type Objective, type Query } from './ceiling-ranker.ts';
import { interviewsDir, readInterviews, REPO_ROOT as ROOT, shownPath, withoutHeldOut } from './interviews.ts';
import { contentF1, containsPhrase, discrimination, mean } from './metrics.ts';
import { planHeldOut } from './heldout.ts';
import { loadScenarios } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    per: { type: 'string', default: '8' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string' },
  },
});

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);

/** Leave-one-group-out: for each group, fit on the others and rank its queries. */
function crossValidated(queries: readonly Query[], objective: (fitted: readonly Query[]) => Objective): number[][] {
  const groups = [...new Set(queries.map((q) => q.group))];
  const orders = new Array<number[]>(queries.length);
  for (const g of groups) {
    const w = fitRanker(queries.filter((q) => q.group !== g), objective);
    queries.forEach((q, i) => {
      if (q.group === g) orders[i] = rankBy(q, w);
    });
  }
  return orders;
}

function scenarioCeiling(dir: string): string[] {
  const interviews = readInterviews(dir);
  const { suites } = loadScenarios(path.resolve(ROOT, 'eval/scenarios'), interviews);
  const queries: Query[] = [];
  let inTop = 0;
  for (const suite of suites) {
    const mind = MindMemory.build(suite.file, memoryOf(suite.interview.turns, suite.interview.guest));
    for (const s of suite.onTopic) {
      const retrieval = retrieve(mind, s.scenario);
      const cands = candidatesOf(mind, retrieval);
      const label = (c: Candidate) => (s.passages.some((p) => c.docs.some((d) => containsPhrase(mind.memories[d]?.text ?? '', p))) ? 1 : 0);
      const gains = cands.map(label);
      if (gains.some((g) => g > 0)) inTop++;
      queries.push({ group: suite.file, id: queries.length, x: cands.map((c) => features(mind, retrieval, c)), gain: gains });
    }
  }
  const rate = top3(queries);
  const engine = queries.map((q) => q.x.map((_, i) => i));
  const fitted = fitRanker(queries, top3);
  const inSample = queries.map((q) => rankBy(q, fitted));
  const cv = crossValidated(queries, top3);
  return [
    `## Scenario suite: right answer among the top three (${queries.length} on-topic scenarios, ${suites.length} people)`,
    '',
    '| ranking | right answer in top 3 |',
    '|---|---:|',
    `| the engine (fused BM25 + word vectors) | ${pct(rate(engine))} |`,
    `| best linear re-weighting of its ${FEATURES.length} signals, fitted on these scenarios (in-sample ceiling) | ${pct(rate(inSample))} |`,
    `| the same, leave-one-person-out | ${pct(rate(cv))} |`,
    `| any ranking of the candidates (an expected answer among them) | ${pct(inTop / queries.length)} |`,
    '',
    `Fitted weights: ${FEATURES.map((f, i) => `${f} ${f3(fitted[i] ?? 0)}`).join(', ')}.`,
    '',
  ];
}

function heldOutCeiling(dir: string, per: number, seed: number): string[] {
  const interviews = readInterviews(dir);
  const plan = planHeldOut(interviews, per, seed);
  const queries: Query[] = [];
  const texts: string[][] = [];
  const real: string[] = [];
  for (const set of plan.sets) {
    if (set.heldOut.length === 0) continue;
    const mind = MindMemory.build(set.interview.file, memoryOf(withoutHeldOut(set.interview, set.heldOut), set.interview.guest));
    set.heldOut.forEach((pair, i) => {
      const retrieval = retrieve(mind, set.asked[i] ?? pair.question);
      const cands = candidatesOf(mind, retrieval);
      const said = cands.map((c) => c.saying);
      queries.push({ group: set.interview.file, id: queries.length, x: cands.map((c) => features(mind, retrieval, c)), gain: said.map((t) => contentF1(t, pair.answer)) });
      texts.push(said);
      real.push(pair.answer);
    });
  }
  // Scores the rankings of any subset of the queries (a fit sees only its training queries).
  const scoreOf = (subset: readonly Query[], orders: readonly number[][]) => {
    const at = subset.map((q) => q.id);
    const picked = at.map((i, k) => texts[i]?.[orders[k]?.[0] ?? 0] ?? '');
    const discs: number[] = [];
    for (const g of new Set(subset.map((q) => q.group))) {
      const ks = subset.map((q, k) => (q.group === g ? k : -1)).filter((k) => k >= 0);
      discs.push(...discrimination(ks.map((k) => picked[k]!), ks.map((k) => real[at[k]!]!)).filter((d) => !Number.isNaN(d)));
    }
    return { f1: mean(picked.map((p, k) => contentF1(p, real[at[k]!]!))), disc: mean(discs) };
  };
  const score = (orders: readonly number[][]) => scoreOf(queries, orders);
  const discOf = (fitted: readonly Query[]): Objective => (orders) => scoreOf(fitted, orders).disc;
  const engine = score(queries.map((q) => q.x.map((_, i) => i)));
  const fitted = fitRanker(queries, firstGain);
  const inSample = score(queries.map((q) => rankBy(q, fitted)));
  const cv = score(crossValidated(queries, firstGain));
  const inSampleDisc = score(queries.map((q) => rankBy(q, fitRanker(queries, discOf))));
  const best = score(queries.map((q) => q.gain.map((g, i) => [g, i] as const).sort((a, b) => b[0] - a[0]).map(([, i]) => i)));
  const row = (name: string, s: { f1: number; disc: number }) => `| ${name} | ${f3(s.f1)} | ${f3(s.disc)} |`;
  return [
    `## Held-out answers: the answer quoted (${queries.length} questions, ${per} per interview)`,
    '',
    '| ranking of the candidate answers | content F1 | discrimination |',
    '|---|---:|---:|',
    row('the engine (its first candidate, quoted as it quotes)', engine),
    row(`best linear re-weighting of its ${FEATURES.length} signals, fitted on these questions (in-sample ceiling)`, inSample),
    row('the same, leave-one-person-out', cv),
    row(`best linear re-weighting fitted for discrimination instead (in-sample ceiling)`, inSampleDisc),
    row('the best of the candidates (knows the real answer)', best),
    '',
    `Fitted weights: ${FEATURES.map((f, i) => `${f} ${f3(fitted[i] ?? 0)}`).join(', ')}.`,
    '',
  ];
}

wordVectors();
const t0 = performance.now();
const dir = interviewsDir(values.dir);
const body = [...scenarioCeiling(dir), ...heldOutCeiling(dir, Number(values.per), Number(values.seed))];
const seconds = ((performance.now() - t0) / 1000).toFixed(1);
const header = [
  '# The ceiling of the offline engine\'s signals',
  '',
  `\`npm run eval:ceiling\` (eval/ceiling.ts), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${seconds} s.`,
  `Transcripts: \`${shownPath(dir)}\` (read in place). The memory is built in process from each transcript as a snapshot builds it;`,
  'candidates are the first 20 answers the engine retrieves. A "linear re-weighting" scores each candidate by a weighted sum of',
  'the signals the offline retrieval has about it, its weights fitted (pairwise logistic regression, then coordinate ascent on',
  "the measure itself) on the very questions it is scored on: no re-weighting of these signals can do better on this set, so it",
  'is the ceiling of tuning them. Leave-one-person-out fits on the other people and scores the one left out: what tuning would',
  'give on new people. Right answer = an expected passage anywhere in the answer (the suite counts it only inside the evidence',
  'windows shown, so its rate is lower; see EVAL.md). Held-out: the candidate chosen is quoted as the engine quotes it.',
  '',
];
const text = [...header, ...body].join('\n');
if (values.out) fs.writeFileSync(values.out, text);
console.log(text);
console.error(`ceiling measured in ${seconds} s`);
