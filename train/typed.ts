/**
 * `npm run train:typed [-- --seed N] [--episodes N] [--no-write]`: fits the typed answers' thresholds
 * (src/memory/params/typed.json) on typed questions of corpus people of the train split
 * (train/typed-set.ts: yes/no questions they were really asked and answered with a clear "yes" or
 * "no", that word taken out of the mind; number questions whose answer states the number), asked
 * of their minds through the service's own search and typed answers (answerTyped).
 *
 * The objective is the same for every number: right answers minus wrong ones (a no_evidence counts
 * 0), so a threshold lets an answer through exactly when answers like it are more often right than
 * wrong; each case weighted so that the "yes" cases and the "no" cases weigh the same in all (three
 * in four people answer "yes": unweighted, answering "Yes" whatever was said would score, a guess
 * from the prior rather than a reading of their words). Where the values before are among the
 * best they stay; other ties go to the stricter value. Chosen one group at a time, each on the cases it decides:
 * - `topicShare` on the number questions and the yes/no questions of judgement asked as an
 *   agreement scale (right when the point is on the side of their "yes"/"no", wrong on the other
 *   side or at the midpoint);
 * - `minStance` on those likert questions and the yes/no questions of judgement;
 * - `yesNoSupport`, `yesNoMargin`, `ssrWeight` together on the yes/no questions.
 * `optionSupport` and `optionMargin` (single and multiple over options in words) are not fitted:
 * the corpus holds too few questions of that kind (three "X or Y?" answered by one of them in 300
 * episodes); they stay as hand-set on the 22 interviews, and EVAL.md says so.
 * The 22 interviews are never read here. Deterministic: the set is taken in a seeded order.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { answerTyped, questionPhrases, questionScenario } from '../src/engines/grounded-questions.ts';
import { TYPED_THRESHOLDS, type TypedThresholds } from '../src/engines/grounded-question-parts.ts';
import { JUDGEMENT_RE } from '../src/engines/grounded-yes-no.ts';
import type { Question, TypedAnswer } from '../src/engines/questions.ts';
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';
import type { MindMemory } from '../src/memory/mind-memory.ts';
import { rankingParams } from '../src/memory/params/params.ts';
import { TYPED_FILE, type TypedParams } from '../src/memory/params/typed.ts';
import { Searcher } from '../src/memory/search/searcher.ts';
import type { SearchResult } from '../src/memory/search/search.ts';
import { cachedTypedEpisodes, typedMinds } from './typed-minds.ts';
import { MAX_EPISODES, type TypedCase } from './typed-set.ts';

/** Scores this close are equal (weighted sums of ±1). */
const EPS = 1e-9;
/** The corpus's person split and the order episodes are taken in (train/corpus.ts, as `npm run train`). */
export const TYPED_SEED = 20261126;
/** The agreement scale a yes/no question of judgement is asked on as a likert question. */
export const AGREEMENT = { min: 1, max: 5, labels: ['strongly disagree', 'disagree', 'neither agree nor disagree', 'agree', 'strongly agree'] };

const steps = (from: number, to: number, step: number): number[] => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 1000) / 1000);
/** The values tried (stricter last, so a tie keeps the stricter: see `best`). */
export const GRID = {
  yesNoSupport: steps(0, 0.9, 0.05),
  yesNoMargin: steps(0, 0.5, 0.05),
  ssrWeight: [20, 10, 5, 2, 0],
  minStance: [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3],
  topicShare: [0.5, 0.6, 0.7, 0.8, 1],
};

export interface Asked {
  c: TypedCase;
  question: Question;
  mind: MindMemory;
  found: SearchResult | null;
  vectors: Float32Array[];
}

/** +1 right, −1 wrong, 0 no_evidence. */
export function outcome(a: TypedAnswer, c: TypedCase, question: Question): number {
  if (a.status !== 'answered') return 0;
  if (question.type === 'likert') {
    const mid = (AGREEMENT.min + AGREEMENT.max) / 2;
    return a.value !== null && a.value !== mid && (a.value > mid) === (c.expected === 'Yes') ? 1 : -1;
  }
  if (question.type === 'number') return a.value === c.expected ? 1 : -1;
  return a.choices.length === 1 && a.choices[0] === c.expected ? 1 : -1;
}

export interface Tally {
  right: number;
  wrong: number;
  answered: number;
  n: number;
  /** right − wrong, each case weighted by its class (`classWeights`). */
  score: number;
}

/** Per yes/no case, n / (2 × its class's count), so both answers weigh the same; 1 for the others. */
function classWeights(asked: readonly Asked[]): number[] {
  const count = (e: TypedCase['expected']) => asked.filter((x) => x.c.expected === e).length;
  const [yes, no] = [count('Yes'), count('No')];
  return asked.map((x) => (x.c.expected === 'Yes' && no > 0 ? asked.length / (2 * yes) : x.c.expected === 'No' && yes > 0 ? asked.length / (2 * no) : 1));
}

export function tally(asked: readonly Asked[], t: Readonly<TypedThresholds>, params: ReturnType<typeof rankingParams>): Tally {
  const r: Tally = { right: 0, wrong: 0, answered: 0, n: asked.length, score: 0 };
  const weights = classWeights(asked);
  for (const [i, x] of asked.entries()) {
    const o = outcome(answerTyped(x.mind, x.question, x.found, x.vectors, params, t), x.c, x.question);
    r.score += o * (weights[i] ?? 1);
    if (o > 0) r.right++;
    if (o < 0) r.wrong++;
    if (o !== 0) r.answered++;
  }
  return r;
}

/**
 * The values of `keys` over their grid that give the most right − wrong on `asked`, the others as in
 * `base`. Where `base` (the values before) is among the best, it stays: the data gives no reason to
 * move it (EVAL.md and the provenance say which numbers moved); else ties go to the stricter.
 */
function best(keys: ReadonlyArray<keyof typeof GRID>, base: TypedThresholds, asked: readonly Asked[], params: ReturnType<typeof rankingParams>): TypedThresholds {
  const before = tally(asked, base, params);
  let choice = base;
  let top = before.score;
  const walk = (i: number, t: TypedThresholds): void => {
    const key = keys[i];
    if (key === undefined) {
      const r = tally(asked, t, params);
      if (r.score > top + EPS || (Math.abs(r.score - top) <= EPS && choice !== base)) [top, choice] = [r.score, t];
      return;
    }
    for (const v of GRID[key]) walk(i + 1, { ...t, [key]: v });
  };
  walk(0, base);
  return choice;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: String(TYPED_SEED) }, episodes: { type: 'string', default: String(MAX_EPISODES) }, 'no-write': { type: 'boolean', default: false } } });
  const seed = Number(values.seed);
  const started = performance.now();
  // The first `--episodes` of the seeded order (all of them by default): each is a mind to embed.
  const episodes = cachedTypedEpisodes(seed, 'train').slice(0, Number(values.episodes));
  console.log(`set: ${episodes.length} person-episodes of train people, ${episodes.reduce((s, e) => s + e.cases.length, 0)} questions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const minds = await typedMinds(episodes, (done, total) => {
    if (done === total || done % 2000 < 64) console.log(`embedded ${done}/${total}`);
  });
  const params = rankingParams();
  const searcher = new Searcher(() => UseLiteEncoder.load(), params);
  const ask = async (c: TypedCase, question: Question, mind: MindMemory): Promise<Asked> => {
    const [found, vectors] = await Promise.all([searcher.search(mind, questionScenario(question)), searcher.phraseVectors(questionPhrases(question))]);
    return { c, question, mind, found, vectors };
  };
  const yesNo: Asked[] = [];
  const scales: Asked[] = [];
  const numbers: Asked[] = [];
  for (const [i, e] of episodes.entries()) {
    const mind = minds[i] as MindMemory;
    for (const c of e.cases) {
      if (c.question.type === 'number') numbers.push(await ask(c, c.question, mind));
      else {
        yesNo.push(await ask(c, c.question, mind));
        if (JUDGEMENT_RE.test(c.question.text)) scales.push(await ask(c, { ...c.question, type: 'likert', options: undefined, scale: AGREEMENT }, mind));
      }
    }
  }
  const judged = yesNo.filter((x) => JUDGEMENT_RE.test(x.question.text));
  const old: TypedThresholds = { ...TYPED_THRESHOLDS };
  let t = best(['topicShare'], old, [...numbers, ...scales], params);
  t = best(['minStance'], t, [...scales, ...judged], params);
  t = best(['ssrWeight', 'yesNoSupport', 'yesNoMargin'], t, yesNo, params);
  const report = (name: string, asked: readonly Asked[]) => ({ name, before: tally(asked, old, params), after: tally(asked, t, params) });
  const sets = [report('yes/no', yesNo), report('likert (judgement, agreement scale)', scales), report('number', numbers)];
  for (const s of sets) console.log(`${s.name}: ${JSON.stringify(s.before)} -> ${JSON.stringify(s.after)}`);
  const labels = { yes: yesNo.filter((x) => x.c.expected === 'Yes').length, no: yesNo.filter((x) => x.c.expected === 'No').length };
  const answeredYes = yesNo.filter((x) => answerTyped(x.mind, x.question, x.found, x.vectors, params, t).status === 'answered');
  const alwaysYes = { answered: answeredYes.length, right: answeredYes.filter((x) => x.c.expected === 'Yes').length };
  const noRight = yesNo.filter((x) => x.c.expected === 'No' && outcome(answerTyped(x.mind, x.question, x.found, x.vectors, params, t), x.c, x.question) > 0).length;
  console.log(`yes/no labels ${JSON.stringify(labels)}; "Yes" on the questions answered would be right ${alwaysYes.right} of ${alwaysYes.answered}; "No" answers right: ${noRight}`);
  const seconds = Math.round((performance.now() - started) / 1000);
  const out: TypedParams = {
    ...t,
    provenance: {
      command: `npm run train:typed${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      date: new Date().toISOString().slice(0, 10),
      data: `typed questions of corpus people of the train split (splitOf(person, ${seed}) === 'train'): ${episodes.length} person-episodes of ${new Set(episodes.map((e) => e.person)).size} people (train/typed-set.ts)`,
      objective: 'right answers minus wrong ones (no_evidence 0), yes and no cases weighted to weigh the same, the values before kept when among the best, other ties to the stricter value; topicShare on number + likert cases, minStance on likert + yes/no of judgement, ssrWeight/yesNoSupport/yesNoMargin on yes/no; optionSupport/optionMargin (options in words) not fitted: no corpus questions of that kind',
      grid: GRID,
      previous: { values: old, origin: 'hand-set on the 22 interviews\' panel questions (in-sample)' },
      inSample: Object.fromEntries(sets.map((s) => [s.name, { n: s.after.n, before: s.before, after: s.after }])),
      yesNoBaseline: { labels, alwaysYesOnAnswered: alwaysYes, rightNo: noRight },
      moved: Object.fromEntries(Object.entries(t).filter(([k, v]) => old[k as keyof TypedThresholds] !== v).map(([k, v]) => [k, v])),
      seconds,
    },
  };
  console.log(JSON.stringify(out, null, 2));
  if (!values['no-write']) {
    fs.writeFileSync(TYPED_FILE, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`written to src/memory/params/typed.json (${seconds} s)`);
  }
}

if (import.meta.main) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  });
}
