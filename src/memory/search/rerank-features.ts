/**
 * What the second-stage ranking (rerank.ts) knows about each of the first stage's best passages
 * beyond its twelve features: the first stage's own score and rank, how many of the candidates
 * belong to the same answer, how central the passage is among the candidates (its mean cosine with
 * the others: a passage that shares its subject with the rest of the shortlist is more likely on the
 * subject asked), and where it sits in the transcript. The same code computes them for
 * `npm run train` and for the engine, so what was fitted is what runs.
 */
import { FEATURE_COUNT, FEATURES, type PassageFeatures } from './features.ts';
import type { PassageVectors } from './passage-vectors.ts';
import { dequantise, dot } from '../vector-math.ts';

export const RERANK_EXTRA = ['firstScore', 'firstGap', 'firstRank', 'answerHits', 'centrality', 'position'] as const;
export const RERANK_FEATURES = [...FEATURES, ...RERANK_EXTRA] as const;
export const RERANK_FEATURE_COUNT = RERANK_FEATURES.length;

/** One query's shortlist: the first stage's best passages, best first, with their scores. */
export interface Shortlist {
  /** Indexes into the mind's PassageVectors. */
  passages: Int32Array;
  /** The first stage's score of each. */
  scores: Float32Array;
}

/**
 * The rows (shortlist × RERANK_FEATURE_COUNT, row-major) of the second stage's features. `dots` is
 * the candidates' pairwise cosines (shortlist × shortlist), from `candidateDots`.
 */
export function rerankRows(features: PassageFeatures, list: Shortlist, dots: Float32Array, docs: number, firstDocOf: (passage: number) => number): Float32Array {
  const k = list.passages.length;
  const rows = new Float32Array(k * RERANK_FEATURE_COUNT);
  const best = list.scores[0] ?? 0;
  const hits = new Map<number, number>();
  for (let i = 0; i < k; i++) {
    const a = features.answerOf[list.passages[i] as number] as number;
    hits.set(a, (hits.get(a) ?? 0) + 1);
  }
  for (let i = 0; i < k; i++) {
    const p = list.passages[i] as number;
    const row = i * RERANK_FEATURE_COUNT;
    rows.set(features.rows.subarray(p * FEATURE_COUNT, (p + 1) * FEATURE_COUNT), row);
    let central = 0;
    for (let j = 0; j < k; j++) if (j !== i) central += dots[i * k + j] as number;
    const at = row + FEATURE_COUNT;
    rows[at] = list.scores[i] as number;
    rows[at + 1] = (list.scores[i] as number) - best;
    rows[at + 2] = Math.log1p(i);
    rows[at + 3] = Math.log(hits.get(features.answerOf[p] as number) ?? 1);
    rows[at + 4] = k > 1 ? central / (k - 1) : 0;
    rows[at + 5] = docs > 1 ? firstDocOf(p) / (docs - 1) : 0;
  }
  return rows;
}

/** The shortlist's vectors back in floats (k × dimensions), and their pairwise cosines (k × k). */
export function candidateVectors(passages: PassageVectors, list: Shortlist): { vectors: Float32Array; dots: Float32Array } {
  const dim = passages.vectors.dimensions;
  const k = list.passages.length;
  const vectors = new Float32Array(k * dim);
  for (let i = 0; i < k; i++) vectors.set(dequantise(passages.vectors, list.passages[i] as number), i * dim);
  const dots = new Float32Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const s = dot(vectors.subarray(i * dim, (i + 1) * dim), vectors.subarray(j * dim, (j + 1) * dim));
      dots[i * k + j] = s;
      dots[j * k + i] = s;
    }
  }
  return { vectors, dots };
}
