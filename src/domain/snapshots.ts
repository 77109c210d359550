import { LRUCache } from 'lru-cache';
import type { Fidelity } from '../engines/fidelity-check.ts';
import { sniffFileKind } from '../ingest/sniff.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { ArtifactRow } from '../store/db/repos/artifacts.ts';
import type { Store, TxScope } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { DomainError, conflict, invalid, notFound } from '../kernel/errors.ts';
import type { MindService } from './minds.ts';
import { decodeCursor, toPage } from '../kernel/pagination.ts';
import { cacheClock, iso, type Runtime } from '../kernel/runtime.ts';
import { isFinal, type Snapshot, type SnapshotState } from './snapshot.ts';
import { artifactBlobKey, safeFileName } from './artifact.ts';

export const PROCESS_SNAPSHOT = 'process-snapshot';

export interface SnapshotStatus {
  id: string;
  mindId: string;
  artifactId: string;
  digitalTwinId: string | null;
  /** When the conversation happened (YYYY-MM-DD). */
  mindsetDate: string;
  status: SnapshotState;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  error: { code: string; message: string } | null;
  /** Leave-some-out self-check of the offline engine on this snapshot (null: not completed or too few Q/A pairs). */
  fidelity: Fidelity | null;
}

/** What clients see of a snapshot. */
export const toStatus = (s: Snapshot): SnapshotStatus => ({
  id: s.id,
  mindId: s.mindId,
  artifactId: s.artifactId,
  digitalTwinId: s.digitalTwinId,
  mindsetDate: s.mindsetDate,
  status: s.status,
  createdAt: s.createdAt,
  startedAt: s.startedAt,
  completedAt: s.completedAt,
  error: s.error,
  fidelity: s.fidelity,
});

export interface SnapshotOptions {
  /** The twin to link the snapshot to; the mind's default twin when absent. */
  digitalTwinId?: string;
  speaker?: string;
  /** When the conversation happened (YYYY-MM-DD); the creation day when absent. */
  mindsetDate?: string;
}

/** A snapshot list page with the mind's total. */
export interface SnapshotList {
  items: SnapshotStatus[];
  nextCursor: string | null;
  count: number;
}

/** What a deletion removed, for the caches that hold a snapshot's data (they drop it at once). */
export interface DeletedSnapshot {
  mindId: string;
  snapshotId: string;
}

export interface StartedAssessment {
  message: 'Mind assessment started';
  mindAssessmentId: string;
  artifactId: string;
}

export interface SnapshotServiceOptions {
  /** Binds a direct (S3) upload to its artifact when the snapshot is created; absent on the filesystem. */
  settleDirectUpload?: (artifact: ArtifactRow) => Promise<void>;
  /** How long a final (completed or failed) status is answered from memory; 0 = always read. */
  statusCacheMs?: number;
}

export class SnapshotService {
  private readonly settleDirectUpload: (artifact: ArtifactRow) => Promise<void>;
  /**
   * Final statuses by account, mind and snapshot. A completed or failed snapshot never changes
   * again; it only disappears with its mind, which clears this cache at once in the process that
   * deleted it and within `statusCacheMs` in the others.
   */
  private readonly finalStatuses: LRUCache<string, SnapshotStatus> | null;

  private readonly store: Store;
  private readonly blobs: BlobStore;
  private readonly minds: MindService;
  private readonly rt: Runtime;
  constructor(store: Store, blobs: BlobStore, minds: MindService, rt: Runtime, opts: SnapshotServiceOptions = {}) {
    this.store = store;
    this.blobs = blobs;
    this.minds = minds;
    this.rt = rt;
    this.settleDirectUpload = opts.settleDirectUpload ?? (() => Promise.resolve());
    const ttl = opts.statusCacheMs ?? 0;
    this.finalStatuses = ttl > 0 ? new LRUCache({ max: 10_000, ttl, perf: cacheClock(rt) }) : null;
    minds.onDeleted(() => this.finalStatuses?.clear());
  }

  private readonly enqueuedListeners: Array<(auth: AuthContext, started: StartedAssessment) => void> = [];
  private readonly deletedListeners: Array<(deleted: DeletedSnapshot) => void> = [];

  /** Calls `fn` after this process deleted a snapshot (caches of its memories drop them). */
  onDeleted(fn: (deleted: DeletedSnapshot) => void): void {
    this.deletedListeners.push(fn);
  }

  /**
   * Calls `fn` after a snapshot and its job are committed, with the caller who created it (the
   * composition root wakes this process's worker and counts the snapshot in the usage meter).
   */
  onEnqueued(fn: (auth: AuthContext, started: StartedAssessment) => void): void {
    this.enqueuedListeners.push(fn);
  }

  private enqueued(auth: AuthContext, started: StartedAssessment): StartedAssessment {
    for (const fn of this.enqueuedListeners) fn(auth, started);
    return started;
  }

  private async checkTwin(mindId: string, twinId: string | undefined): Promise<void> {
    if (twinId && !(await this.store.repos.minds.twin(mindId, twinId))) {
      throw notFound('The digital twin', 'digital_twin_not_found');
    }
  }

  /** The twin a new snapshot is linked to: the one named, else the mind's default twin. */
  private async twinFor(tx: TxScope, mindId: string, twinId: string | undefined): Promise<string | null> {
    return twinId ?? (await tx.repos.twins.defaultOf(mindId))?.id ?? null;
  }

  /** The direct path: the file came in the request. Its type is decided from its bytes, now. */
  async createFromFile(
    auth: AuthContext,
    mindId: string,
    file: { bytes: Buffer; fileName?: string; contentType?: string },
    opts: SnapshotOptions,
  ): Promise<StartedAssessment> {
    await this.minds.require(auth, mindId);
    await this.checkTwin(mindId, opts.digitalTwinId);
    if (!sniffFileKind(file.bytes)) {
      throw invalid('unsupported_file_type', 'The file is not a VTT, DOCX or PDF transcript (decided from its bytes).');
    }
    const artifactId = this.rt.newId();
    const key = artifactBlobKey(mindId, artifactId);
    const at = iso(this.rt.now());
    await this.blobs.putBuffer(key, file.bytes);
    let started: StartedAssessment;
    try {
      started = await this.store.transaction(async ({ repos, queue }) => {
        await repos.artifacts.insert({
          id: artifactId,
          mind_id: mindId,
          account_id: auth.accountId,
          file_name: safeFileName(artifactId, file.fileName, file.contentType),
          content_type: file.contentType ?? null,
          state: 'uploaded',
          size_bytes: file.bytes.length,
          blob_key: key,
          upload_expires_at: null,
          uploaded_at: at,
          created_at: at,
        });
        return this.start({ repos, queue }, auth, mindId, artifactId, opts);
      });
    } catch (err) {
      await this.blobs.delete(key);
      throw err;
    }
    return this.enqueued(auth, started);
  }

  /** The signed-URL path: the file was uploaded before; its type is checked when it is processed. */
  async createFromArtifact(
    auth: AuthContext,
    mindId: string,
    artifactId: string,
    opts: SnapshotOptions,
  ): Promise<StartedAssessment> {
    await this.minds.require(auth, mindId);
    await this.checkTwin(mindId, opts.digitalTwinId);
    const artifact = await this.store.repos.artifacts.ofMind(auth.accountId, mindId, artifactId);
    if (!artifact) throw notFound('The artifact', 'artifact_not_found');
    await this.settleDirectUpload(artifact);
    if (artifact.state !== 'uploaded' && (await this.store.repos.artifacts.byId(artifactId))?.state !== 'uploaded') {
      throw conflict('artifact_not_uploaded', 'Nothing has been uploaded to this artifact yet: PUT the file to its signed URL first.');
    }
    return this.enqueued(auth, await this.store.transaction((tx) => this.start(tx, auth, mindId, artifactId, opts)));
  }

  /** Creates the snapshot and enqueues its job in the caller's transaction. */
  private async start(
    tx: TxScope,
    auth: AuthContext,
    mindId: string,
    artifactId: string,
    opts: SnapshotOptions,
  ): Promise<StartedAssessment> {
    const id = this.rt.newId();
    const createdAt = iso(this.rt.now());
    await tx.repos.snapshots.insert({
      id,
      mindId,
      accountId: auth.accountId,
      artifactId,
      digitalTwinId: await this.twinFor(tx, mindId, opts.digitalTwinId),
      speaker: opts.speaker?.trim() || null,
      mindsetDate: opts.mindsetDate ?? createdAt.slice(0, 10),
      createdAt,
    });
    // One account's files take turns with other accounts' (a batch of slow files delays others by one file at most).
    await tx.queue.enqueue(PROCESS_SNAPSHOT, { snapshotId: id }, { group: auth.accountId });
    return { message: 'Mind assessment started', mindAssessmentId: id, artifactId };
  }

  async status(auth: AuthContext, mindId: string, snapshotId: string): Promise<SnapshotStatus> {
    const key = `${auth.accountId}/${mindId}/${snapshotId}`;
    const cached = this.finalStatuses?.get(key);
    if (cached) return cached;
    const row = await this.store.repos.snapshots.ofMind(auth.accountId, mindId, snapshotId);
    if (!row) return this.missing(auth, mindId);
    const status = toStatus(row);
    if (isFinal(status.status)) this.finalStatuses?.set(key, status);
    return status;
  }

  /** A page of the mind's snapshots, newest first, with how many it has in all. */
  async list(auth: AuthContext, mindId: string, limit: number, cursor?: string): Promise<SnapshotList> {
    await this.minds.require(auth, mindId);
    const { snapshots } = this.store.repos;
    const [rows, count] = await Promise.all([snapshots.page(auth.accountId, mindId, decodeCursor(cursor), limit), snapshots.countOf(auth.accountId, mindId)]);
    return { ...toPage(rows, limit, toStatus, (r) => r.createdAt), count };
  }

  /**
   * Deletes the snapshot: its memories, profile, transcript and psychometrics leave the mind (its
   * memory and profile are those of the remaining snapshots), its job is dropped (a worker holding
   * it finds the snapshot gone and writes nothing), and its uploaded file is deleted unless another
   * snapshot was made from the same artifact. Then the database's files are scrubbed of it (Store.scrub).
   */
  async delete(
    auth: AuthContext,
    mindId: string,
    snapshotId: string,
    opts: {
      /** Runs in the deletion's transaction once the snapshot is deleted (the retention sweep writes its access-log row there). */
      inTransaction?: (tx: TxScope) => Promise<void>;
      /** false: the caller scrubs once after many deletions (the retention sweep). */
      scrub?: boolean;
    } = {},
  ): Promise<{ message: 'Snapshot deleted successfully'; snapshotId: string }> {
    const { inTransaction, scrub = true } = opts;
    const deleted = await this.store.transaction(async (tx) => {
      const d = await tx.repos.snapshots.delete(auth.accountId, mindId, snapshotId);
      if (d && inTransaction) await inTransaction(tx);
      return d;
    });
    if (!deleted) return this.missing(auth, mindId);
    this.finalStatuses?.delete(`${auth.accountId}/${mindId}/${snapshotId}`);
    for (const fn of this.deletedListeners) fn({ mindId, snapshotId });
    if (deleted.blobKey) await this.blobs.delete(deleted.blobKey);
    if (scrub) await this.store.scrub();
    return { message: 'Snapshot deleted successfully', snapshotId };
  }

  /** Links the snapshot to a twin of its mind (null: unlinks it); answers the snapshot as it is now. */
  async link(auth: AuthContext, mindId: string, snapshotId: string, twinId: string | null): Promise<SnapshotStatus> {
    await this.minds.require(auth, mindId);
    if (twinId !== null) await this.checkTwin(mindId, twinId);
    if (!(await this.store.repos.snapshots.setTwin(auth.accountId, mindId, snapshotId, twinId, iso(this.rt.now())))) {
      throw notFound('The snapshot', 'snapshot_not_found');
    }
    this.finalStatuses?.delete(`${auth.accountId}/${mindId}/${snapshotId}`);
    return this.status(auth, mindId, snapshotId);
  }

  /** The snapshot of this mind (NotFound otherwise), completed (409 `snapshot_not_ready` otherwise). */
  async requireCompleted(auth: AuthContext, mindId: string, snapshotId: string): Promise<Snapshot> {
    const row = await this.store.repos.snapshots.ofMind(auth.accountId, mindId, snapshotId);
    if (!row) return this.missing(auth, mindId);
    if (row.status !== 'completed') {
      throw conflict('snapshot_not_ready', `The snapshot is ${row.status}: its analysis exists once it is completed.`, { status: row.status });
    }
    return row;
  }

  /** The snapshot of this mind in any state, or NotFound. */
  async require(auth: AuthContext, mindId: string, snapshotId: string): Promise<Snapshot> {
    return (await this.store.repos.snapshots.ofMind(auth.accountId, mindId, snapshotId)) ?? this.missing(auth, mindId);
  }

  /** NotFound for the mind, else for the snapshot. */
  private async missing(auth: AuthContext, mindId: string): Promise<never> {
    await this.minds.require(auth, mindId);
    throw notFound('The snapshot', 'snapshot_not_found');
  }
}

export const snapshotNotReady = () =>
  new DomainError('conflict', 'snapshot_not_ready', 'The mind has no completed snapshot yet: wait until a snapshot status is "completed".');

/**
 * The completed snapshots a mind answers from (those linked to `twinId`, or every linked one), in
 * the order that keys their memory: the one place simulations, panels, the profile and the
 * psychometrics find them. 409 `snapshot_not_ready` when there is none (`notReady` says it otherwise).
 */
export async function answeringSnapshotIds(store: Store, mindId: string, twinId?: string, notReady: () => DomainError = snapshotNotReady): Promise<string[]> {
  const ids = (await store.repos.snapshots.completedIds(mindId, twinId)).map((r) => r.id);
  if (ids.length === 0) throw notReady();
  return ids;
}
