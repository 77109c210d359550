import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { DigitalTwinRow, MindRow } from '../store/db/repos/minds.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { notFound } from '../kernel/errors.ts';
import { byCreatedAt, decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { artifactBlobKey, artifactUploadKey } from './artifact.ts';

export interface Mind {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface DigitalTwin {
  id: string;
  mindId: string;
  name: string;
  /** The twin made with the mind: snapshots created without a twin are linked to it. */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toMind = (r: MindRow): Mind => ({ id: r.id, name: r.name, createdAt: r.created_at, updatedAt: r.updated_at });
export const toTwin = (r: DigitalTwinRow): DigitalTwin => ({
  id: r.id,
  mindId: r.mind_id,
  name: r.name,
  isDefault: Boolean(r.is_default),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** What a deletion removed, for the caches that hold a mind's data (they drop it at once). */
export interface DeletedMind {
  mindId: string;
  snapshotIds: readonly string[];
}

export class MindService {
  private readonly deletedListeners: Array<(deleted: DeletedMind) => void> = [];

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly rt: Runtime,
  ) {}

  /** Calls `fn` after this process deleted a mind (caches of its data drop it). */
  onDeleted(fn: (deleted: DeletedMind) => void): void {
    this.deletedListeners.push(fn);
  }

  async create(auth: AuthContext, name: string): Promise<{ mind: Mind; digitalTwin: DigitalTwin }> {
    const at = iso(this.rt.now());
    const mind: MindRow = { id: this.rt.newId(), account_id: auth.accountId, name, created_at: at, updated_at: at };
    const twin: DigitalTwinRow = {
      id: this.rt.newId(),
      mind_id: mind.id,
      account_id: auth.accountId,
      name: 'Default',
      is_default: 1,
      created_at: at,
      updated_at: at,
    };
    await this.store.transaction(({ repos }) => repos.minds.insertWithTwin(mind, twin));
    return { mind: toMind(mind), digitalTwin: toTwin(twin) };
  }

  /** The mind, or NotFound — also for another account's mind, so ids never leak across accounts. */
  async require(auth: AuthContext, mindId: string): Promise<MindRow> {
    const row = await this.store.repos.minds.byId(auth.accountId, mindId);
    if (!row) throw notFound('The mind', 'mind_not_found');
    return row;
  }

  async get(auth: AuthContext, mindId: string): Promise<Mind & { digitalTwins: DigitalTwin[] }> {
    const row = await this.require(auth, mindId);
    const twins = await this.store.repos.minds.twinsOf(row.id);
    return { ...toMind(row), digitalTwins: twins.map(toTwin) };
  }

  async list(auth: AuthContext, limit: number, cursor?: string): Promise<Page<Mind>> {
    const rows = await this.store.repos.minds.page(auth.accountId, decodeCursor(cursor), limit);
    return toPage(rows, limit, toMind, byCreatedAt);
  }

  async rename(auth: AuthContext, mindId: string, name: string): Promise<Mind> {
    if (!(await this.store.repos.minds.rename(auth.accountId, mindId, name, iso(this.rt.now())))) {
      throw notFound('The mind', 'mind_not_found');
    }
    return toMind(await this.require(auth, mindId));
  }

  /** Removes the mind with its twins, artifacts, snapshots and memories, then its blobs. */
  async delete(auth: AuthContext, mindId: string): Promise<void> {
    await this.require(auth, mindId);
    await this.erase(auth.accountId, mindId);
  }

  /** The operator's erasure (`admin erase-mind`): the same deletion, whatever the account. */
  async eraseAnyAccount(mindId: string): Promise<{ mindId: string; accountId: string; snapshots: number }> {
    const row = await this.store.repos.minds.anyAccount(mindId);
    if (!row) throw notFound('The mind', 'mind_not_found');
    const { snapshotIds } = await this.erase(row.account_id, mindId);
    return { mindId, accountId: row.account_id, snapshots: snapshotIds.length };
  }

  /**
   * Rows first (one transaction), then this process's caches, then every blob under the mind's
   * folders: the artifacts, and the upload keys of direct (S3) uploads, including objects written
   * after the rows were read (an upload that finished meanwhile).
   */
  private async erase(accountId: string, mindId: string): Promise<{ snapshotIds: readonly string[] }> {
    const { snapshotIds } = await this.store.transaction(({ repos }) => repos.minds.delete(accountId, mindId));
    for (const fn of this.deletedListeners) fn({ mindId, snapshotIds });
    await Promise.all([this.blobs.deletePrefix(artifactBlobKey(mindId)), this.blobs.deletePrefix(artifactUploadKey(mindId))]);
    return { snapshotIds };
  }
}
