/**
 * Search stage: every passage of the mind scored by the learned linear ranking over its features
 * (features.ts; weights fitted by `npm run train` with a listwise softmax loss on training people),
 * its best passages re-ordered by the second stage when one is fitted (rerank.ts), then grouped into the answers they belong to, best answer first (an answer scores as its best
 * passage). Deterministic: ties keep document order.
 */
import type { RankingParams } from '../params/params.ts';
import type { MindMemory } from '../mind-memory.ts';
import { FEATURE_COUNT, passageFeatures, type PassageFeatures } from './features.ts';
import type { PassageVectors } from './passage-vectors.ts';
import type { QueryVectors, SearchQuery } from './query.ts';
import { rerankPassageScores } from './rerank.ts';

export interface RankedPassage {
  /** Index in the mind's PassageVectors. */
  passage: number;
  /** Its first and last doc (sentence). */
  first: number;
  last: number;
  /** The answer it belongs to (the answer's first doc). */
  answer: number;
  score: number;
}

export interface Ranking {
  /** Every passage, best first. */
  passages: RankedPassage[];
  /** The best passage of each answer, best first. */
  answers: RankedPassage[];
  features: PassageFeatures;
}

/** The ranking's score of each passage: its features times the fitted weights. */
export function scorePassages(features: PassageFeatures, params: Pick<RankingParams, 'ranking'>): Float32Array {
  const n = features.answerOf.length;
  const out = new Float32Array(n);
  const w = params.ranking.weights;
  for (let p = 0; p < n; p++) {
    let s = params.ranking.bias;
    for (let f = 0; f < FEATURE_COUNT; f++) s += (w[f] as number) * (features.rows[p * FEATURE_COUNT + f] as number);
    out[p] = s;
  }
  return out;
}

export function rankPassages(mind: MindMemory, passages: PassageVectors, query: SearchQuery, vectors: QueryVectors, params: RankingParams): Ranking {
  return rankFeatures(passageFeatures(mind, passages, query, vectors, params.adapter), params, passages, { ask: vectors.ask, docs: mind.size });
}

/** What the second stage reads beyond the features: the ask's vector and the mind's size in docs. */
export interface RerankContext {
  ask: Float32Array;
  docs: number;
}

/**
 * Passages ranked by their features' scores, and the best passage of each answer. `passages` gives
 * each its first and last doc (-1 without: `npm run train` ranks features it computed already).
 */
export function rankFeatures(
  features: PassageFeatures,
  params: Pick<RankingParams, 'ranking' | 'rerank'>,
  passages: PassageVectors | null = null,
  context: RerankContext | null = null,
): Ranking {
  const first = scorePassages(features, params);
  const scores = params.rerank && passages && context ? rerankPassageScores(params.rerank, features, first, passages, context.ask, context.docs) : first;
  const ranked: RankedPassage[] = Array.from(scores, (score, p) => ({
    passage: p,
    first: passages?.first[p] ?? -1,
    last: passages?.last[p] ?? -1,
    answer: features.answerOf[p] as number,
    score,
  }));
  ranked.sort((a, b) => b.score - a.score || a.passage - b.passage);
  const seen = new Set<number>();
  const answers = ranked.filter((r) => !seen.has(r.answer) && (seen.add(r.answer), true));
  return { passages: ranked, answers, features };
}
