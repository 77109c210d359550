/**
 * Answer stage: whether the scenario bears on what the person said, and how likely the passage the
 * engine quotes answers it. Two logistic models over what the search knows of its best answer and how
 * many it was chosen from (CONFIDENCE_FEATURES), fitted by `npm run train` on validation people:
 * P(on-topic), on their questions against hand-written off-topic scenarios (it decides whether the
 * engine answers), and P(right | on-topic), on their questions alone. The confidence is their product,
 * so 0.8 means the quoted passage was the person's own answer about 80% of the time, and an off-topic
 * scenario scores near 0. EVAL.md shows the reliability table on test people.
 */
import { CONFIDENCE_FEATURES, type RankingParams } from '../params/params.ts';
import type { Ranking } from '../search/rank.ts';
import { FEATURE_COUNT, FEATURES } from '../search/features.ts';
import { TOP_COSINES } from '../tuning.ts';
import { roundScore } from './scores.ts';

const ASK_BM25 = FEATURES.indexOf('bm25Ask');
const CONTEXT_COS = FEATURES.indexOf('cosContext');

/** The confidence model's inputs for a ranking, in CONFIDENCE_FEATURES order. */
export function confidenceFeatures(ranking: Ranking): number[] {
  const top = ranking.answers[0];
  if (!top) return CONFIDENCE_FEATURES.map(() => 0);
  const second = ranking.answers[1];
  const row = top.passage * FEATURE_COUNT;
  const { features } = ranking;
  const best = largest(features.cosAsk, TOP_COSINES);
  return [
    top.score,
    second ? top.score - second.score : 0,
    best[0] ?? -1,
    features.rows[row + CONTEXT_COS] ?? 0,
    features.rows[row + ASK_BM25] ?? 0,
    features.cosContext ? 1 : 0,
    // How many answers the best one was chosen from: with few, the best is more often the right one.
    Math.log(ranking.answers.length),
    features.centroidCosAsk,
    best.length ? best.reduce((s, v) => s + v, 0) / best.length : 0,
  ];
}

/** The k largest values, largest first, in one pass (a mind can have tens of thousands of passages: no sort of them all). */
function largest(values: Float32Array, k: number): number[] {
  const top: number[] = [];
  for (const v of values) {
    if (top.length === k && v <= (top[k - 1] as number)) continue;
    let at = top.length;
    while (at > 0 && (top[at - 1] as number) < v) at--;
    top.splice(at, 0, v);
    if (top.length > k) top.pop();
  }
  return top;
}

/** Scores and confidences are reported to three decimals (answer/scores.ts). */
export { roundScore };

export function probability(x: readonly number[], model: RankingParams['confidence']): number {
  let z = model.bias;
  x.forEach((v, i) => (z += (model.weights[i] ?? 0) * v));
  return 1 / (1 + Math.exp(-z));
}

export interface Assessment {
  /** P(the scenario bears on what the person said): what decides whether the engine answers. */
  onTopic: number;
  /** P(the quoted answer is the person's own answer to it) = P(on-topic) × P(right | on-topic), rounded. */
  confidence: number;
}

/** The calibrated assessment of a ranking's best answer. */
export function assess(ranking: Ranking, params: RankingParams): Assessment {
  if (ranking.answers.length === 0) return { onTopic: 0, confidence: 0 };
  const x = confidenceFeatures(ranking);
  const onTopic = probability(x, params.onTopic);
  return { onTopic, confidence: roundScore(onTopic * probability(x, params.confidence)) };
}
