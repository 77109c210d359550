/**
 * Each part of the ranking's gain on the corpus's test people (never fitted on): the first stage
 * alone (twelve features, a linear score), the second stage without its bilinear term (the best
 * such model of `npm run train`'s grid, kept in rerank.json's provenance), and the second stage as
 * the engine runs it.
 */
import { RankingParams } from '../src/memory/params/params.ts';
import type { QueryExample } from '../train/examples.ts';
import { rankingScores, type RankingScores } from '../train/measure.ts';

export interface AblationRow {
  part: string;
  scores: RankingScores;
}

export function ablation(queries: readonly QueryExample[], params: RankingParams): AblationRow[] {
  const rows: AblationRow[] = [{ part: 'first stage alone (12 features, linear)', scores: rankingScores(queries, { ranking: params.ranking }) }];
  const kept = (params.rerank?.provenance as { ablation?: { withoutBilinear?: unknown } } | undefined)?.ablation?.withoutBilinear;
  const parsed = kept ? RankingParams.shape.rerank.safeParse({ ...(kept as object), provenance: {} }) : null;
  if (parsed?.success && parsed.data) rows.push({ part: '+ second stage, its features and hidden layer only (no bilinear term)', scores: rankingScores(queries, { ranking: params.ranking, rerank: parsed.data }) });
  if (params.rerank) rows.push({ part: '+ second stage with the bilinear term (the engine)', scores: rankingScores(queries, params) });
  return rows;
}
