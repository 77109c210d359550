/**
 * A scenario read for the search: its ask and its context (scenario.ts), as text for the encoder and
 * as stems for BM25. In a conversation, an ask too thin to search alone ("What would you do first?")
 * takes the latest earlier messages to the person as its subject.
 */
import { HISTORY_MESSAGES, scenarioTokens } from './scenario.ts';
import type { SentenceEncoder } from '../encoder/sentence-encoder.ts';

export interface SearchQuery {
  ask: string;
  context: string;
  askStems: string[];
  contextStems: string[];
}

/** The scenario's ask and context, both as encoder vectors (context null when there is none). */
export interface QueryVectors {
  ask: Float32Array;
  context: Float32Array | null;
}

export function readQuery(scenario: string, priorTurns: readonly string[] = []): SearchQuery {
  const parts = scenarioTokens(scenario, priorTurns);
  const history = priorTurns.slice(-HISTORY_MESSAGES).join(' ');
  const ask = parts.leansOnHistory ? `${history} ${parts.ask}` : parts.ask;
  const askTokens = parts.leansOnHistory ? [...parts.historyTokens, ...parts.askTokens] : parts.askTokens;
  return {
    ask,
    context: parts.context,
    askStems: [...new Set(askTokens.map((t) => t.stem))],
    contextStems: [...new Set(parts.contextTokens.map((t) => t.stem))],
  };
}

/** The query's vectors: one call of the encoder for the ask and the context together. */
export async function embedQuery(encoder: SentenceEncoder, q: Pick<SearchQuery, 'ask' | 'context'>): Promise<QueryVectors> {
  const texts = q.context ? [q.ask, q.context] : [q.ask];
  const [ask, context] = await encoder.embed(texts);
  return { ask: ask as Float32Array, context: context ?? null };
}
