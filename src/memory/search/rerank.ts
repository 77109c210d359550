/**
 * Search stage, second pass: the first stage's best RERANK passages (rank.ts, a linear score over
 * twelve features) re-ordered by a small network fitted by `npm run train` (train/rerank.ts) with a
 * listwise softmax loss on the corpus's train people, and chosen on its validation people:
 *
 *   score = x̂·linear + relu(x̂·W + b)·out + (Uᵀask)·(Vᵀpassage)
 *
 * where x̂ are the passage's second-stage features (rerank-features.ts) standardised, and the last
 * term a low-rank bilinear similarity of the encoder's vectors (a learned projection of the ask and
 * of the passage into a space where an answer sits near the questions it answers). Passages beyond
 * the shortlist keep the first stage's order below it. Deterministic.
 */
import type { PassageFeatures } from './features.ts';
import type { PassageVectors } from './passage-vectors.ts';
import { candidateVectors, RERANK_FEATURE_COUNT, rerankRows, type Shortlist } from './rerank-features.ts';

export interface RerankModel {
  /** How many of the first stage's best passages are re-ordered. */
  shortlist: number;
  features: string[];
  mean: number[];
  std: number[];
  linear: number[];
  /** features × hidden, row-major. */
  hidden: number[];
  hiddenBias: number[];
  out: number[];
  /** The bilinear term's projections, dimensions × rank each, row-major (empty: no such term). */
  rank: number;
  u: number[];
  v: number[];
}

/** Scores of a shortlist under the model: rows are rerankRows', vectors the candidates' (k × dim). */
export function rerankScores(model: RerankModel, rows: Float32Array, ask: Float32Array, vectors: Float32Array): Float32Array {
  const f = RERANK_FEATURE_COUNT;
  const k = rows.length / f;
  const hiddenSize = model.hiddenBias.length;
  const dim = ask.length;
  const r = model.rank;
  const qu = new Float32Array(r);
  for (let d = 0; d < dim; d++) {
    const a = ask[d] as number;
    if (a === 0) continue;
    for (let j = 0; j < r; j++) qu[j] = (qu[j] as number) + a * (model.u[d * r + j] as number);
  }
  const out = new Float32Array(k);
  const x = new Float32Array(f);
  const pv = new Float32Array(r);
  for (let i = 0; i < k; i++) {
    for (let c = 0; c < f; c++) x[c] = ((rows[i * f + c] as number) - (model.mean[c] as number)) / (model.std[c] as number);
    let s = 0;
    for (let c = 0; c < f; c++) s += (x[c] as number) * (model.linear[c] as number);
    for (let h = 0; h < hiddenSize; h++) {
      let z = model.hiddenBias[h] as number;
      for (let c = 0; c < f; c++) z += (x[c] as number) * (model.hidden[c * hiddenSize + h] as number);
      if (z > 0) s += z * (model.out[h] as number);
    }
    if (r > 0) {
      pv.fill(0);
      for (let d = 0; d < dim; d++) {
        const p = vectors[i * dim + d] as number;
        if (p === 0) continue;
        for (let j = 0; j < r; j++) pv[j] = (pv[j] as number) + p * (model.v[d * r + j] as number);
      }
      for (let j = 0; j < r; j++) s += (qu[j] as number) * (pv[j] as number);
    }
    out[i] = s;
  }
  return out;
}

/** The first stage's best `model.shortlist` passages of a score array, best first (ties: document order). */
export function shortlistOf(scores: Float32Array, size: number): Shortlist {
  const order = Array.from(scores.keys()).sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  const top = order.slice(0, size);
  return { passages: Int32Array.from(top), scores: Float32Array.from(top, (p) => scores[p] as number) };
}

/**
 * The final scores of every passage: the shortlist's by the model, every other passage below the
 * shortlist's lowest in the first stage's order.
 */
export function rerankPassageScores(model: RerankModel, features: PassageFeatures, firstScores: Float32Array, passages: PassageVectors, ask: Float32Array, docs: number): Float32Array {
  const list = shortlistOf(firstScores, model.shortlist);
  const { vectors, dots } = candidateVectors(passages, list);
  const rows = rerankRows(features, list, dots, docs, (p) => passages.first[p] as number);
  const scores = rerankScores(model, rows, ask, vectors);
  const out = new Float32Array(firstScores.length);
  let lowest = Infinity;
  for (const s of scores) lowest = Math.min(lowest, s);
  const cut = list.scores[list.scores.length - 1] ?? 0;
  // Below the shortlist: the first stage's order, each at its distance below the shortlist's last.
  for (let p = 0; p < firstScores.length; p++) out[p] = lowest - 1 - (cut - (firstScores[p] as number));
  list.passages.forEach((p, i) => (out[p] = scores[i] as number));
  return out;
}
