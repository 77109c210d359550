/**
 * Search stage, whole: a scenario (and the conversation's earlier messages) read into a query,
 * embedded once, and every passage of the mind ranked by the learned ranking; with the calibrated
 * confidence that the best answer is the one that answers it (answer/confidence.ts).
 */
import { assess } from '../answer/confidence.ts';
import type { SentenceEncoder } from '../encoder/sentence-encoder.ts';
import type { MindMemory } from '../mind-memory.ts';
import type { RankingParams } from '../params/params.ts';
import { embedQuery, readQuery, type QueryVectors, type SearchQuery } from './query.ts';
import { rankPassages, type Ranking } from './rank.ts';

export interface SearchResult {
  query: SearchQuery;
  ranking: Ranking;
  /** P(on-topic): below the fitted `declineBelow` the engine declines. */
  onTopic: number;
  /** P(the best answer is the person's own answer), rounded. */
  confidence: number;
}

/** The query and its vectors, for a search over one or many minds (a panel embeds each question once). */
export interface PreparedQuery {
  query: SearchQuery;
  vectors: QueryVectors;
}

export async function prepareQuery(encoder: SentenceEncoder, scenario: string, priorTurns: readonly string[] = []): Promise<PreparedQuery> {
  const query = readQuery(scenario, priorTurns);
  return { query, vectors: await embedQuery(encoder, query) };
}

/** The ranking of a mind's passages for a prepared query; null when the mind has no passage vectors. */
export function searchMind(mind: MindMemory, prepared: PreparedQuery, params: RankingParams): SearchResult | null {
  if (!mind.passages || mind.passages.size === 0) return null;
  const ranking = rankPassages(mind, mind.passages, prepared.query, prepared.vectors, params);
  return { query: prepared.query, ranking, ...assess(ranking, params) };
}
