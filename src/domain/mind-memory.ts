/**
 * The one owner of a mind's memory per exact set of completed snapshots: its memories with
 * their BM25 index and passage vectors (memory/mind-memory.ts), and its merged profile with the
 * experts' reflections. Completed snapshots never change, so each set is loaded and indexed
 * once per process and shared by both engines, the profile route and the dashboard; a mind
 * with a new or deleted snapshot has a new set, hence a new entry.
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

/** Sets of snapshots kept indexed at once (each ~1–2 KB per memory). */
const CAPACITY = 32;
/**
 * An entry unused this long is dropped: the bound on how long another process (an API node, or
 * the service while `admin erase-mind` runs) keeps a deleted mind's memories, which it never
 * serves again (their snapshot ids are no longer listed). The deleting process drops them at once.
 */
const IDLE_MS = 30 * 60_000;

interface Entry {
  memory?: Promise<MindMemory>;
  context?: Promise<EngineContext>;
}

export class MindMemories {
  private readonly entries = new LRUCache<string, Entry>({ max: CAPACITY, ttl: IDLE_MS, updateAgeOnGet: true });

  private readonly store: Store;
  /** The encoder whose passage vectors the search uses (others are ignored: the mind answers without them). */
  private readonly encoder: string;
  private readonly embed: EmbedTexts | null;
  /**
   * `embed` (the encoder, in this process) fills in the passage vectors of a snapshot that has none:
   * one processed before the service stored them, or by another encoder. Once, then stored.
   */
  constructor(store: Store, encoder = '', embed: EmbedTexts | null = null) {
    this.store = store;
    this.encoder = encoder;
    this.embed = embed;
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

  /** The memory of these completed snapshots (in this order: it is the key). */
  memory(snapshotIds: readonly string[]): Promise<MindMemory> {
    return this.once(snapshotIds, 'memory', () => this.loadMemory(snapshotIds));
  }

  /** Merged profile and reflections of these completed snapshots. */
  context(snapshotIds: readonly string[]): Promise<EngineContext> {
    return this.once(snapshotIds, 'context', () => this.loadContext(snapshotIds));
  }

  /** One part of a set's entry, loaded once and shared; a failed load is not kept. */
  private once<K extends keyof Entry>(snapshotIds: readonly string[], part: K, load: () => NonNullable<Entry[K]>): NonNullable<Entry[K]> {
    const key = snapshotIds.join(',');
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = {}));
    const held = entry;
    const existing = held[part];
    if (existing) return existing as NonNullable<Entry[K]>;
    const loading = load();
    held[part] = loading;
    loading.catch(() => {
      if (held[part] === loading) delete held[part];
    });
    return loading;
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

  private async loadContext(snapshotIds: readonly string[]): Promise<EngineContext> {
    const { profiles } = this.store.repos;
    const rows = new Map((await profiles.profilesOf([...snapshotIds])).map((r) => [r.snapshot_id, r]));
    const ordered = snapshotIds.flatMap((id) => {
      const row = rows.get(id);
      return row ? [{ snapshotId: id, profile: JSON.parse(row.profile) as StoredSnapshotProfile }] : [];
    });
    const reflections = (await profiles.reflectionsOf([...snapshotIds])).map((r) => ({ snapshotId: r.snapshot_id, expert: r.expert, text: r.text }));
    return { profile: mergeProfiles(ordered), reflections };
  }
}
