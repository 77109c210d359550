/**
 * The measurement behind CORRECTION_SIMILARITY and CORRECTION_CONFIDENCE
 * (src/memory/search/corrections.ts): how near, in the encoder's space, a question asked again in
 * other words is to itself, against the same person's other questions. Validation people of the
 * corpus split (seed 20261126; never test people, never the 22 interviews): each of their
 * interviewer's questions (≥ 6 words) is a correction's scenario; each of three paraphrases
 * (eval/paraphrases.ts) is asked. A positive: the paraphrase against its own question. A negative:
 * the paraphrase against the nearest of the person's other questions (a mind with many corrections
 * asked something else). Prints, per threshold, the paraphrases that reach their own question, the
 * ones an other question passes, and how often the best question above it is the right one.
 *
 *   npm run eval:correction-similarity
 */
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';
import { dot } from '../src/memory/vector-math.ts';
import { splitScenario } from '../src/memory/search/scenario.ts';
import { cachedDataset } from '../train/cached-dataset.ts';
import { threeParaphrases } from './paraphrases.ts';

const SEED = 20261126;
const people = cachedDataset(SEED, { train: 0, validation: 110, test: 0 }).filter((p) => p.split === 'validation');
const encoder = await UseLiteEncoder.load();
const own: number[] = [];
const nearestOther: number[] = [];
/** The same with a correction's scenario also read as its ask alone (the larger of the two cosines). */
const ownAsk: number[] = [];
const nearestOtherAsk: number[] = [];
let questions = 0;
for (const person of people) {
  const asked = [...new Set(person.examples.map((e) => e.question.trim()))];
  if (asked.length < 2) continue;
  questions += asked.length;
  const qv = await encoder.embed(asked);
  const av = await encoder.embed(asked.map((q) => splitScenario(q).ask));
  const either = (v: Float32Array, j: number) => Math.max(dot(v, qv[j] as Float32Array), dot(v, av[j] as Float32Array));
  const paras = asked.flatMap((q) => threeParaphrases(q));
  const pv = await encoder.embed(paras);
  paras.forEach((_, k) => {
    const i = Math.floor(k / 3);
    const v = pv[k] as Float32Array;
    own.push(dot(v, qv[i] as Float32Array));
    nearestOther.push(Math.max(...qv.filter((_, j) => j !== i).map((w) => dot(v, w))));
    ownAsk.push(either(v, i));
    nearestOtherAsk.push(Math.max(...qv.map((_, j) => j).filter((j) => j !== i).map((j) => either(v, j))));
  });
}
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
const f = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`${questions} questions of ${people.length} validation people, ${own.length} paraphrases`);
console.log(`cosine with its own question:        p5 ${f(quantile(own, 0.05))}  p10 ${f(quantile(own, 0.1))}  median ${f(quantile(own, 0.5))}`);
console.log(`cosine with the nearest other one:   median ${f(quantile(nearestOther, 0.5))}  p90 ${f(quantile(nearestOther, 0.9))}  p99 ${f(quantile(nearestOther, 0.99))}`);
function table(label: string, own: number[], nearestOther: number[]): void {
console.log(label);
for (let t = 0.4; t <= 0.9001; t += 0.025) {
  const reach = own.filter((x) => x >= t).length;
  const other = nearestOther.filter((x) => x >= t).length;
  // The best question above the threshold is the right one: its own passes and beats the nearest other.
  const right = own.filter((x, i) => x >= t && x > (nearestOther[i] ?? 0)).length;
  const led = own.filter((x, i) => x >= t || (nearestOther[i] ?? 0) >= t).length;
  console.log(`cosine ≥ ${f(t)}: own question reached ${pct(reach / own.length)}  another passes ${pct(other / own.length)}  right when one leads ${pct(right / Math.max(1, led))}`);
}
}
table('the whole scenarios:', own, nearestOther);
table("the whole scenario asked against a correction's whole scenario or its ask alone:", ownAsk, nearestOtherAsk);
