/**
 * The one owner of a mind's memory per exact set of completed snapshots: its memories with
 * their BM25 index and passage vectors (memory/mind-memory.ts), and its merged profile with the
 * experts' reflections. Completed snapshots never change, so each set is loaded and indexed
 * once per process and shared by both engines, the profile route and the dashboard; a mind
 * with a new or deleted snapshot has a new set, hence a new entry. The sets held at once are
 * bounded by their estimated bytes (MEMORY_CACHE_MB), the least recently used dropped first, and
 * a dropped set is loaded and indexed again on its next use.
 */
import { LRUCache } from 'lru-cache';
import type { EngineContext } from '../engines/types.ts';
import { MindMemory, preloadMindMemory } from '../memory/mind-memory.ts';
import { mergeProfiles } from '../memory/profile-merge.ts';
import type { StoredSnapshotProfile } from '../memory/profile-types.ts';
import type { Store } from '../store/store.ts';
import { passagesOf, type EmbeddedTexts } from '../memory/build/passages.ts';
import type { SnapshotPassages } from '../memory/search/passage-vectors.ts';
import type { StoredMemory } from '../memory/types.ts';

/** The sentence encoder's vectors of some texts, in their stored form (memory/build/passages.ts embedForStorage). */
export type EmbedTexts = (texts: string[]) => Promise<EmbeddedTexts>;

/** The cache's budget unless the configuration gives one (MEMORY_CACHE_MB). */
export const DEFAULT_MEMORY_CACHE_BYTES = 256 * 1024 * 1024;
/**
 * An entry unused this long is dropped: the bound on how long another process (an API node, or
 * the service while `admin erase-mind` runs) keeps a deleted mind's memories, which it never
 * serves again (their snapshot ids are no longer listed). The deleting process drops them at once.
 */
const IDLE_MS = 30 * 60_000;
/** What an entry counts for before its parts are loaded (the entry, its key, its promises). */
const ENTRY_BYTES = 1024;
/**
 * A merged profile, parsed, per character of the profiles' stored JSON (1.45–1.7 measured on five
 * corpus minds, heapUsed after a full GC, 20 copies held), and a reflection per character of its text.
 */
const PROFILE_BYTES_PER_CHAR = 1.7;
const REFLECTION_BYTES_PER_CHAR = 2;

interface Entry {
  memory?: Promise<MindMemory>;
  context?: Promise<EngineContext>;
  /** The memory once built: its `bytes` (which grow as its sentences are read) are the entry's size. */
  built?: MindMemory;
  /** The context's estimated bytes once loaded. */
  contextBytes?: number;
  /** The size the cache counts for the entry now. */
  counted: number;
}

const entryBytes = (e: Entry): number => ENTRY_BYTES + (e.built?.bytes ?? 0) + (e.contextBytes ?? 0);

export class MindMemories {
  /**
   * Bounded by bytes, not by a count of sets: each entry is sized by its memory's estimate
   * (`MindMemory.bytes`, within a few percent of the heap it holds) and its context's, and the
   * least recently used sets are dropped to keep the total within the budget. A set larger than
   * the whole budget is built for each use and not kept. A set being loaded counts for
   * ENTRY_BYTES until it is built, then for its size.
   */
  private readonly entries: LRUCache<string, Entry>;
  /** The budget, in bytes. */
  readonly maxBytes: number;

  private readonly store: Store;
  /** The encoder whose passage vectors the search uses (others are ignored: the mind answers without them). */
  private readonly encoder: string;
  private readonly embed: EmbedTexts | null;
  /**
   * `embed` (the encoder, in this process) fills in the passage vectors of a snapshot that has none:
   * one processed before the service stored them, or by another encoder. Once, then stored.
   * `maxBytes` is the budget of the sets held at once (MEMORY_CACHE_MB).
   */
  constructor(store: Store, encoder = '', embed: EmbedTexts | null = null, maxBytes = DEFAULT_MEMORY_CACHE_BYTES) {
    this.store = store;
    this.encoder = encoder;
    this.embed = embed;
    this.maxBytes = Math.max(1, Math.floor(maxBytes));
    this.entries = new LRUCache<string, Entry>({
      maxSize: this.maxBytes,
      sizeCalculation: entryBytes,
      ttl: IDLE_MS,
      updateAgeOnGet: true,
    });
    setInterval(() => this.entries.purgeStale(), 60_000).unref();
  }

  /**
   * Loads wink-nlp now rather than on the first simulate: the API calls it at start (main.ts).
   * Nothing else needs it in this thread, so a process that serves no simulate (the operator CLI, a
   * worker process) never loads it.
   */
  warmUp(): void {
    preloadMindMemory();
  }

  /** Drops every set that holds one of these snapshots (their mind was deleted). */
  forget(snapshotIds: readonly string[]): void {
    const gone = new Set(snapshotIds);
    for (const key of [...this.entries.keys()]) {
      if (key.split(',').some((id) => gone.has(id))) this.entries.delete(key);
    }
  }

  /** The snapshot ids of every set held now (for erasure checks). */
  heldSnapshotIds(): string[] {
    return [...this.entries.keys()].flatMap((key) => key.split(','));
  }

  /** The bytes the sets held now count for (at most `maxBytes`). */
  get heldBytes(): number {
    return this.entries.calculatedSize;
  }

  /** The memory of these completed snapshots (in this order: it is the key). */
  memory(snapshotIds: readonly string[]): Promise<MindMemory> {
    const { key, entry } = this.entryOf(snapshotIds);
    if (entry.memory) {
      // Its sentences read since it was last counted make it larger.
      this.recount(key, entry);
      return entry.memory;
    }
    const loading = this.loadMemory(snapshotIds);
    entry.memory = loading;
    loading.then(
      (memory) => {
        if (entry.memory !== loading) return;
        entry.built = memory;
        this.recount(key, entry);
      },
      () => {
        if (entry.memory === loading) delete entry.memory; // a failed load is not kept
      },
    );
    return loading;
  }

  /** Merged profile and reflections of these completed snapshots. */
  context(snapshotIds: readonly string[]): Promise<EngineContext> {
    const { key, entry } = this.entryOf(snapshotIds);
    if (entry.context) return entry.context;
    const sized = this.loadContext(snapshotIds);
    const loading = sized.then((s) => s.context);
    entry.context = loading;
    sized.then(
      ({ bytes }) => {
        if (entry.context !== loading) return;
        entry.contextBytes = bytes;
        this.recount(key, entry);
      },
      () => {
        if (entry.context === loading) delete entry.context;
      },
    );
    return loading;
  }

  /** The entry of a set, made (and counted as ENTRY_BYTES) if none is held. */
  private entryOf(snapshotIds: readonly string[]): { key: string; entry: Entry } {
    const key = snapshotIds.join(',');
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { counted: ENTRY_BYTES };
      this.entries.set(key, entry);
    }
    return { key, entry };
  }

  /**
   * Counts an entry at its size now, if it is still the one held (an entry dropped meanwhile, by
   * the budget, its idle time or `forget`, is not put back). lru-cache sizes an entry when it is
   * set with another value, so the entry is taken out and set again: it becomes the most
   * recently used, which it is, and the least recently used others are dropped until the total
   * fits the budget again (the entry itself, if it alone is larger).
   */
  private recount(key: string, entry: Entry): void {
    const size = entryBytes(entry);
    if (size === entry.counted || this.entries.peek(key) !== entry) return;
    entry.counted = size;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  private async loadMemory(snapshotIds: readonly string[]): Promise<MindMemory> {
    const [memories, stored] = await Promise.all([this.store.repos.snapshots.memoriesOf(snapshotIds), this.store.repos.passages.of(snapshotIds)]);
    // PassageVectors.over keeps the vectors of this.encoder only.
    return MindMemory.build(snapshotIds.join(','), memories, [...stored, ...(await this.backfill(snapshotIds, memories, stored))], this.encoder);
  }

  /** Passage vectors for the snapshots that have none of this encoder: embedded now and stored, once. */
  private async backfill(snapshotIds: readonly string[], memories: readonly StoredMemory[], stored: readonly SnapshotPassages[]): Promise<SnapshotPassages[]> {
    const embed = this.embed;
    if (!embed) return [];
    const have = new Set(stored.filter((p) => p.encoder === this.encoder).map((p) => p.snapshotId));
    const out: SnapshotPassages[] = [];
    for (const snapshotId of snapshotIds.filter((id) => !have.has(id))) {
      const own = memories.filter((m) => m.snapshotId === snapshotId);
      const snapshot = await this.store.repos.snapshots.byId(snapshotId);
      if (own.length === 0 || !snapshot) continue;
      const { spans, texts } = passagesOf(own);
      const { encoder, vectors } = await embed(texts);
      const passages = { snapshotId, encoder, spans, vectors };
      await this.store.repos.passages.save(snapshot.mindId, passages, new Date().toISOString());
      out.push(passages);
    }
    return out;
  }

  private async loadContext(snapshotIds: readonly string[]): Promise<{ context: EngineContext; bytes: number }> {
    const { profiles } = this.store.repos;
    const rows = new Map((await profiles.profilesOf([...snapshotIds])).map((r) => [r.snapshot_id, r]));
    let chars = 0;
    const ordered = snapshotIds.flatMap((id) => {
      const row = rows.get(id);
      if (!row) return [];
      chars += row.profile.length;
      return [{ snapshotId: id, profile: JSON.parse(row.profile) as StoredSnapshotProfile }];
    });
    const reflections = (await profiles.reflectionsOf([...snapshotIds])).map((r) => ({ snapshotId: r.snapshot_id, expert: r.expert, text: r.text }));
    const reflectionChars = reflections.reduce((sum, r) => sum + r.text.length, 0);
    return {
      context: { profile: mergeProfiles(ordered), reflections },
      bytes: Math.round(PROFILE_BYTES_PER_CHAR * chars + REFLECTION_BYTES_PER_CHAR * reflectionChars),
    };
  }
}
