/**
 * The search as the engines use it: the encoder (loaded on first use, or ahead by `warmUp`) and the
 * fitted parameters, bound once by the composition root. Both engines and panels search through the
 * same Searcher, so they see the same passages for the same question.
 *
 * A query is embedded once: prepared queries (and the short phrases of typed questions' options) are
 * kept in a bounded LRU by their text, so a panel embeds each question once for all its minds, and a
 * scenario asked again (another mind, a retry) costs no encoder call. Concurrent requests for the
 * same text share one embedding.
 */
import { LRUCache } from 'lru-cache';
import type { SentenceEncoder } from '../encoder/sentence-encoder.ts';
import type { MindMemory } from '../mind-memory.ts';
import type { RankingParams } from '../params/params.ts';
import { PREPARED_QUERIES } from '../tuning.ts';
import { prepareQuery, searchMind, type PreparedQuery, type SearchResult } from './search.ts';
import { correctionTexts, matchingCorrections, type CorrectionMatch, type CorrectionMemory } from './corrections.ts';

export class Searcher {
  private encoder: Promise<SentenceEncoder> | null = null;
  readonly params: RankingParams;
  private readonly load: () => Promise<SentenceEncoder>;
  private readonly prepared = new LRUCache<string, Promise<PreparedQuery>>({ max: PREPARED_QUERIES });
  private readonly phrases = new LRUCache<string, Promise<Float32Array>>({ max: PREPARED_QUERIES });

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

  /** The scenario read and embedded, once per distinct text (and earlier turns) while it stays in the LRU. */
  prepare(scenario: string, priorTurns: readonly string[] = []): Promise<PreparedQuery> {
    return remembered(this.prepared, JSON.stringify([scenario, priorTurns]), async () => prepareQuery(await this.encoderNow(), scenario, priorTurns));
  }

  /** Short phrases (a typed question's options) as unit vectors, each embedded once while it stays in the LRU. */
  async phraseVectors(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.all(texts.map((t) => remembered(this.phrases, t, async () => (await (await this.encoderNow()).embed([t]))[0] as Float32Array)));
  }

  /** The mind's ranking for a scenario; null when the mind has no passage vectors of this encoder. */
  async search(mind: MindMemory, scenario: string, priorTurns: readonly string[] = []): Promise<SearchResult | null> {
    if (!mind.passages?.size) return null; // nothing to rank: no query to embed
    return searchMind(mind, await this.prepare(scenario, priorTurns), this.params);
  }

  /**
   * The mind's corrections that answer the scenario, best first (search/corrections.ts): the scenario
   * embedded whole, each correction's scenario whole and as its ask, each text once while it stays
   * in the LRU. None without corrections.
   */
  async corrections(scenario: string, corrections: readonly CorrectionMemory[] = []): Promise<CorrectionMatch[]> {
    if (corrections.length === 0) return [];
    const texts = corrections.map(correctionTexts);
    const [asked, ...vectors] = await this.phraseVectors([scenario.trim(), ...texts.flat()]);
    const pairs = corrections.map((_, i) => vectors.slice(2 * i, 2 * i + 2));
    return asked ? matchingCorrections(scenario, asked, corrections, pairs) : [];
  }

  /** The encoder's id: the passages stored by the analysis threads must come from the same. */
  get encoderId(): string {
    return this.params.encoder;
  }
}

/** The cached promise for `key`, or a new one from `make` (dropped again if it fails, so a retry embeds anew). */
function remembered<T>(cache: LRUCache<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit;
  const made = make();
  cache.set(key, made);
  made.catch(() => {
    if (cache.get(key) === made) cache.delete(key);
  });
  return made;
}
