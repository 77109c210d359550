/** Ranking and calibration measures shared by `npm run train` (validation) and `npm run eval` (test). */
import { confidenceFeatures, probability } from '../src/memory/answer/confidence.ts';
import type { RankingParams } from '../src/memory/params/params.ts';
import { rankFeatures, type Ranking } from '../src/memory/search/rank.ts';
import type { QueryExample } from './examples.ts';

/** A query's ranking as the engine makes it (search/rank.ts), from its precomputed features. */
export const rankingOf = (q: QueryExample, params: Pick<RankingParams, 'ranking' | 'rerank'>): Ranking => rankFeatures(q.features, params, q.passages, q);

/** Whether the right answer is among the first k answers of the ranking. */
export function rightAt(q: QueryExample, ranking: Ranking, k: number): boolean {
  return ranking.answers.slice(0, k).some((a) => sameAnswerRight(q, a.answer));
}

const sameAnswerRight = (q: QueryExample, answer: number): boolean => {
  for (let p = 0; p < q.labels.length; p++) if (q.labels[p] === 1 && q.features.answerOf[p] === answer) return true;
  return false;
};

export interface ConfidenceRow {
  x: number[];
  /** 1 when the best answer is the right one (never for off-topic). */
  y: number;
  offTopic: boolean;
}

export function confidenceRows(queries: readonly QueryExample[], params: Pick<RankingParams, 'ranking' | 'rerank'>): ConfidenceRow[] {
  return queries.map((q) => {
    const r = rankingOf(q, params);
    return { x: confidenceFeatures(r), y: q.example !== null && rightAt(q, r, 1) ? 1 : 0, offTopic: q.example === null };
  });
}


export interface ReliabilityBin {
  from: number;
  to: number;
  count: number;
  meanConfidence: number;
  rightRate: number;
}

/** Ten equal-width bins of confidence with how often the best answer was right, and the expected calibration error. */
export function reliability(conf: readonly number[], right: readonly number[], bins = 10): { bins: ReliabilityBin[]; ece: number } {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, count: 0, meanConfidence: 0, rightRate: 0 }));
  conf.forEach((c, i) => {
    const b = out[Math.min(bins - 1, Math.floor(c * bins))]!;
    b.count++;
    b.meanConfidence += c;
    b.rightRate += right[i] ?? 0;
  });
  let ece = 0;
  for (const b of out) {
    if (b.count === 0) continue;
    b.meanConfidence /= b.count;
    b.rightRate /= b.count;
    ece += (b.count / conf.length) * Math.abs(b.meanConfidence - b.rightRate);
  }
  return { bins: out, ece };
}

export interface RankingScores {
  queries: number;
  right1: number;
  right3: number;
}

export function rankingScores(queries: readonly QueryExample[], params: Pick<RankingParams, 'ranking' | 'rerank'>): RankingScores {
  const on = queries.filter((q) => q.example !== null);
  let r1 = 0;
  let r3 = 0;
  for (const q of on) {
    const r = rankingOf(q, params);
    if (rightAt(q, r, 1)) r1++;
    if (rightAt(q, r, 3)) r3++;
  }
  return { queries: on.length, right1: r1 / on.length, right3: r3 / on.length };
}

/** Confidence of each row under a model. */
export const confidencesOf = (rows: readonly ConfidenceRow[], model: RankingParams['confidence']): number[] => rows.map((r) => probability(r.x, model));
