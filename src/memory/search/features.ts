/**
 * What the learned ranking knows about each passage of a mind for one query: the encoder's cosine
 * with the ask and with the context, how far each is from the best passage's, the best and the mean
 * cosine with the ask within its answer, the adapted similarity with the ask (below) and its gap to the best, BM25 of the ask's and the context's words over its sentences (the person's own words only:
 * the interviewer's question is never matched, since in the corpus the scenario *is* that question),
 * whether it opens its answer, and its length. The same code computes them for `npm run train` and
 * for the engine, so what was fitted is what runs.
 */
import { idealScore } from '../bm25.ts';
import { dot } from '../vector-math.ts';
import type { MindMemory } from '../mind-memory.ts';
import type { PassageVectors } from './passage-vectors.ts';
import type { QueryVectors, SearchQuery } from './query.ts';

export const FEATURES = [
  'cosAsk',
  'cosContext',
  'gapAsk',
  'gapContext',
  'answerCosAsk',
  'answerMeanCosAsk',
  'adaptedAsk',
  'adaptedGap',
  'bm25Ask',
  'bm25Context',
  'firstOfAnswer',
  'logWords',
] as const;
export type FeatureName = (typeof FEATURES)[number];
export const FEATURE_COUNT = FEATURES.length;

export interface PassageFeatures {
  /** Passages × FEATURE_COUNT, row-major. */
  rows: Float32Array;
  /** The answer (its first doc) of each passage. */
  answerOf: Int32Array;
  cosAsk: Float32Array;
  cosContext: Float32Array | null;
  /** Cosine of the ask with the mind's centre (PassageVectors.centroid): how near the person's subjects it is at all. */
  centroidCosAsk: number;
  /** BM25 of the ask's and the context's words per doc (sentence), in [0, 1]: a passage's features take its best sentence's. */
  docBm25Ask: Float32Array;
  docBm25Context: Float32Array;
}

/** BM25 of these stems over the person's sentences (not the interviewer's questions), normalised by the ideal match and capped at 1, per doc. */
function bm25(mind: MindMemory, stems: readonly string[]): Float32Array {
  const out = new Float32Array(mind.size);
  if (stems.length === 0) return out;
  const terms = stems.map((term) => ({ term, weight: mind.lexical.idfOf(term) }));
  const ideal = idealScore(terms.map((t) => t.weight));
  for (const hit of mind.lexical.searchTerms(terms, mind.size, ideal, 0)) out[hit.doc] = Math.min(1, hit.score);
  return out;
}

/**
 * `adapter`: one weight per dimension of the encoder, fitted on training people's question → answer pairs
 * (`npm run train`), so that Σ adapter[d]·ask[d]·passage[d] ranks a person's answer to a question above
 * their other passages better than the plain cosine does; empty before it is fitted (the feature is then 0).
 */
export function passageFeatures(mind: MindMemory, passages: PassageVectors, query: SearchQuery, vectors: QueryVectors, adapter: readonly number[] = []): PassageFeatures {
  const n = passages.size;
  const cosAsk = passages.similarities(vectors.ask);
  const adapted = adapter.length > 0 ? passages.similarities(Float32Array.from(vectors.ask, (x, d) => x * (adapter[d] ?? 0))) : new Float32Array(n);
  let bestAdapted = -Infinity;
  for (const v of adapted) bestAdapted = Math.max(bestAdapted, v);
  const cosContext = vectors.context ? passages.similarities(vectors.context) : null;
  const lexAsk = bm25(mind, query.askStems);
  const lexContext = bm25(mind, query.contextStems);
  const answerOf = new Int32Array(n);
  const answerBest = new Map<number, number>();
  const answerSum = new Map<number, { sum: number; n: number }>();
  let best = -1;
  let bestContext = -1;
  for (let p = 0; p < n; p++) {
    // An answer is the person's run of sentences under one question; words under no question
    // (a monologue, a talk) have no answers to group, so each passage stands alone.
    const first = passages.first[p] as number;
    const answer = mind.memories[first]?.question === null ? first : (mind.answerFirst[first] as number);
    answerOf[p] = answer;
    const c = cosAsk[p] as number;
    best = Math.max(best, c);
    if (cosContext) bestContext = Math.max(bestContext, cosContext[p] as number);
    answerBest.set(answer, Math.max(answerBest.get(answer) ?? -1, c));
    const mean = answerSum.get(answer) ?? { sum: 0, n: 0 };
    answerSum.set(answer, { sum: mean.sum + c, n: mean.n + 1 });
  }
  const rows = new Float32Array(n * FEATURE_COUNT);
  for (let p = 0; p < n; p++) {
    const first = passages.first[p] as number;
    const last = passages.last[p] as number;
    let words = 0;
    let la = 0;
    let lc = 0;
    for (let d = first; d <= last; d++) {
      words += mind.words[d] ?? 0;
      la = Math.max(la, lexAsk[d] as number);
      lc = Math.max(lc, lexContext[d] as number);
    }
    const c = cosAsk[p] as number;
    const cc = cosContext ? (cosContext[p] as number) : 0;
    const answer = answerOf[p] as number;
    const mean = answerSum.get(answer) ?? { sum: c, n: 1 };
    const row = p * FEATURE_COUNT;
    rows[row] = c;
    rows[row + 1] = cc;
    rows[row + 2] = c - best;
    rows[row + 3] = cosContext ? cc - bestContext : 0;
    rows[row + 4] = answerBest.get(answer) ?? c;
    rows[row + 5] = mean.sum / mean.n;
    rows[row + 6] = adapted[p] as number;
    rows[row + 7] = (adapted[p] as number) - bestAdapted;
    rows[row + 8] = la;
    rows[row + 9] = lc;
    rows[row + 10] = mind.answerFirst[first] === first ? 1 : 0;
    rows[row + 11] = Math.log1p(words);
  }
  return { rows, answerOf, cosAsk, cosContext, centroidCosAsk: dot(vectors.ask, passages.centroid), docBm25Ask: lexAsk, docBm25Context: lexContext };
}
