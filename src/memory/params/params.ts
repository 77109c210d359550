/**
 * The engine's fitted parameters (ranking.json), written by `npm run train` with their provenance and
 * read once here, checked: a file that does not match the features this code computes is refused at
 * start, never half-used.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { FEATURES } from '../search/features.ts';
import { RERANK_FEATURES } from '../search/rerank-features.ts';

export const CONFIDENCE_FEATURES = ['topScore', 'margin', 'bestCosAsk', 'topCosContext', 'topBm25Ask', 'hasContext', 'logAnswers', 'centroidCosAsk', 'top5CosAsk'] as const;

const Linear = z.object({ bias: z.number(), weights: z.array(z.number()) });
const RerankModel = z
  .object({
    shortlist: z.number().int().min(1),
    features: z.array(z.string()),
    mean: z.array(z.number()),
    std: z.array(z.number()),
    linear: z.array(z.number()),
    hidden: z.array(z.number()),
    hiddenBias: z.array(z.number()),
    out: z.array(z.number()),
    rank: z.number().int().min(0),
    u: z.array(z.number()),
    v: z.array(z.number()),
    provenance: z.record(z.string(), z.unknown()),
  })
  .refine((m) => m.hidden.length === m.features.length * m.hiddenBias.length && m.out.length === m.hiddenBias.length && m.u.length === m.v.length && m.u.length % Math.max(1, m.rank) === 0, 'rerank.json: the shapes of its weights disagree');
export const RankingParams = z.object({
  encoder: z.string().min(1),
  /** Per-dimension weights of the ask–passage similarity (search/features.ts `adaptedAsk`). */
  adapter: z.array(z.number()),
  features: z.array(z.string()),
  ranking: Linear,
  confidenceFeatures: z.array(z.string()),
  /** P(the scenario is one the person's words bear on): a logistic model over the confidence features. */
  onTopic: Linear,
  /** P(the best answer is the person's own answer | on-topic): the same features, fitted on on-topic questions. */
  confidence: Linear,
  /** Below this P(on-topic) the engine declines (chosen on validation people, see provenance). */
  declineBelow: z.number().min(0).max(1),
  provenance: z.record(z.string(), z.unknown()),
  /** The second stage (search/rerank.ts), from rerank.json beside this file; absent before it is fitted. */
  rerank: RerankModel.optional(),
});
export type RankingParams = z.infer<typeof RankingParams>;

export const PARAMS_FILE = new URL('./ranking.json', import.meta.url);
export const RERANK_FILE = new URL('./rerank.json', import.meta.url);

/** Checks a parameter file against the features this code computes. */
export function checkParams(json: unknown): RankingParams {
  const p = RankingParams.parse(json);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(p.features, FEATURES) || p.ranking.weights.length !== FEATURES.length) {
    throw new Error(`ranking.json was fitted on features [${p.features.join(', ')}], this code computes [${FEATURES.join(', ')}]: run npm run train`);
  }
  if (!same(p.confidenceFeatures, CONFIDENCE_FEATURES) || p.confidence.weights.length !== CONFIDENCE_FEATURES.length || p.onTopic.weights.length !== CONFIDENCE_FEATURES.length) {
    throw new Error(`ranking.json's confidence features [${p.confidenceFeatures.join(', ')}] differ from [${CONFIDENCE_FEATURES.join(', ')}]: run npm run train`);
  }
  if (p.rerank) {
    const f = p.rerank.features;
    if (!same(f, RERANK_FEATURES) || p.rerank.linear.length !== f.length || p.rerank.mean.length !== f.length) {
      throw new Error(`rerank.json was fitted on features [${f.join(', ')}], this code computes [${RERANK_FEATURES.join(', ')}]: run npm run train`);
    }
  }
  return p;
}

let loaded: RankingParams | null = null;

/** The committed parameters, read once. */
export function rankingParams(): RankingParams {
  loaded ??= checkParams({
    ...(JSON.parse(fs.readFileSync(PARAMS_FILE, 'utf8')) as object),
    ...(fs.existsSync(RERANK_FILE) ? { rerank: JSON.parse(fs.readFileSync(RERANK_FILE, 'utf8')) as unknown } : {}),
  });
  return loaded;
}
