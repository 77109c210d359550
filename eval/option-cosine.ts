/**
 * How near, in the encoder's space, a short phrase (a typed question's option) is to a passage that
 * says it, against the same person's other passages: the measurement behind OPTION_COSINE
 * (src/memory/tuning.ts). Validation people of the corpus split (seed 20261126), never test people
 * and never the 22 interviews: for each passage, the option is its rarest content word among the
 * person's passages (said there and nowhere else); the positive is its cosine with that passage,
 * the negative its cosine with another passage of the same person. Prints both distributions and
 * the lowest cosine at which a match is right ≥ 90% of the time (classes balanced).
 *
 *   npm run eval:option-cosine            (needs the training embeddings cache: npm run train)
 */
import { UseLiteEncoder, USE_LITE } from '../src/memory/encoder/use-lite.ts';
import { termTokens } from '../src/memory/sentences.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import { dot } from '../src/memory/vector-math.ts';
import { cachedDataset } from '../train/cached-dataset.ts';
import { EmbeddingCache } from '../train/embedding-cache.ts';

const SEED = 20261126;
const PEOPLE = 60;
const PER_PERSON = 8;

const people = cachedDataset(SEED).filter((p) => p.split === 'validation').slice(0, PEOPLE);
const cache = new EmbeddingCache(USE_LITE.id, USE_LITE.dimensions);
const encoder = await UseLiteEncoder.load();
const random = seededRandom(SEED);
const pos: number[] = [];
const neg: number[] = [];
for (const person of people) {
  const stemsOf = person.passages.map((t) => termTokens(t));
  const df = new Map<string, number>();
  for (const ts of stemsOf) for (const s of new Set(ts.map((t) => t.stem))) df.set(s, (df.get(s) ?? 0) + 1);
  const picks = person.passages.map((_, i) => i).sort(() => random() - 0.5).slice(0, PER_PERSON);
  const options: Array<{ word: string; own: number; other: number }> = [];
  for (const i of picks) {
    const own = (stemsOf[i] ?? []).filter((t) => df.get(t.stem) === 1 && t.word.length > 3);
    const word = own[Math.floor(random() * own.length)]?.word;
    if (!word) continue;
    const others = person.passages.map((_, j) => j).filter((j) => j !== i && !(stemsOf[j] ?? []).some((t) => t.word === word));
    const other = others[Math.floor(random() * others.length)];
    if (other !== undefined) options.push({ word, own: i, other });
  }
  const vectors = await encoder.embed(options.map((o) => o.word));
  options.forEach((o, k) => {
    const v = vectors[k] as Float32Array;
    pos.push(dot(v, cache.get(person.passages[o.own] as string)));
    neg.push(dot(v, cache.get(person.passages[o.other] as string)));
  });
}
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] ?? NaN;
const f = (x: number) => x.toFixed(3);
console.log(`${pos.length} options of ${people.length} validation people`);
console.log(`cosine with the passage that says it: p10 ${f(quantile(pos, 0.1))}  median ${f(quantile(pos, 0.5))}  p90 ${f(quantile(pos, 0.9))}`);
console.log(`cosine with another passage:          p10 ${f(quantile(neg, 0.1))}  median ${f(quantile(neg, 0.5))}  p90 ${f(quantile(neg, 0.9))}`);
for (let t = 0.1; t <= 0.6001; t += 0.025) {
  const tp = pos.filter((x) => x >= t).length;
  const fp = neg.filter((x) => x >= t).length;
  console.log(`cosine ≥ ${t.toFixed(3)}: precision ${f(tp / Math.max(1, tp + fp))}  recall ${f(tp / pos.length)}`);
}
