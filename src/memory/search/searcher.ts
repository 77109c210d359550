/**
 * The search as the engines use it: the encoder (loaded on first use, or ahead by `warmUp`) and the
 * fitted parameters, bound once by the composition root. Both engines and panels search through the
 * same Searcher, so they see the same passages for the same question.
 */
import type { SentenceEncoder } from '../encoder/sentence-encoder.ts';
import type { MindMemory } from '../mind-memory.ts';
import type { RankingParams } from '../params/params.ts';
import { prepareQuery, searchMind, type PreparedQuery, type SearchResult } from './search.ts';

export class Searcher {
  private encoder: Promise<SentenceEncoder> | null = null;
  readonly params: RankingParams;
  private readonly load: () => Promise<SentenceEncoder>;

  constructor(load: () => Promise<SentenceEncoder>, params: RankingParams) {
    this.load = load;
    this.params = params;
  }

  /** The encoder, loaded once (a failed load is tried again next time). */
  encoderNow(): Promise<SentenceEncoder> {
    if (!this.encoder) {
      const loading = this.load();
      this.encoder = loading;
      loading.catch(() => {
        if (this.encoder === loading) this.encoder = null;
      });
    }
    return this.encoder;
  }

  /** Loads the encoder now rather than on the first simulate. */
  async warmUp(): Promise<void> {
    await this.encoderNow();
  }

  async prepare(scenario: string, priorTurns: readonly string[] = []): Promise<PreparedQuery> {
    return prepareQuery(await this.encoderNow(), scenario, priorTurns);
  }

  /** The mind's ranking for a scenario; null when the mind has no passage vectors of this encoder. */
  async search(mind: MindMemory, scenario: string, priorTurns: readonly string[] = []): Promise<SearchResult | null> {
    if (!mind.passages?.size) return null; // nothing to rank: no query to embed
    return searchMind(mind, await this.prepare(scenario, priorTurns), this.params);
  }

  /** The encoder's id: the passages stored by the analysis threads must come from the same. */
  get encoderId(): string {
    return this.params.encoder;
  }
}
