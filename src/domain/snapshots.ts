import { LRUCache } from 'lru-cache';
import type { Fidelity } from '../engines/fidelity-check.ts';
import { sniffFileKind } from '../ingest/sniff.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { ArtifactRow } from '../store/db/repos/artifacts.ts';
import type { Store, TxScope } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { DomainError, conflict, invalid, notFound } from '../kernel/errors.ts';
import type { MindService } from './minds.ts';
import { decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { isFinal, type Snapshot, type SnapshotState } from './snapshot.ts';
import { artifactBlobKey, safeFileName } from './artifact.ts';

export const PROCESS_SNAPSHOT = 'process-snapshot';

export interface SnapshotStatus {
  id: string;
  mindId: string;
  artifactId: string;
  digitalTwinId: string | null;
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
  status: s.status,
  createdAt: s.createdAt,
  startedAt: s.startedAt,
  completedAt: s.completedAt,
  error: s.error,
  fidelity: s.fidelity,
});

export interface SnapshotOptions {
  digitalTwinId?: string;
  speaker?: string;
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

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly minds: MindService,
    private readonly rt: Runtime,
    opts: SnapshotServiceOptions = {},
  ) {
    this.settleDirectUpload = opts.settleDirectUpload ?? (() => Promise.resolve());
    const ttl = opts.statusCacheMs ?? 0;
    this.finalStatuses = ttl > 0 ? new LRUCache({ max: 10_000, ttl }) : null;
    minds.onDeleted(() => this.finalStatuses?.clear());
  }

  private readonly enqueuedListeners: Array<(auth: AuthContext, started: StartedAssessment) => void> = [];

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
    await tx.repos.snapshots.insert({
      id,
      mindId,
      accountId: auth.accountId,
      artifactId,
      digitalTwinId: opts.digitalTwinId ?? null,
      speaker: opts.speaker?.trim() || null,
      createdAt: iso(this.rt.now()),
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
    if (!row) {
      await this.minds.require(auth, mindId);
      throw notFound('The snapshot', 'snapshot_not_found');
    }
    const status = toStatus(row);
    if (isFinal(status.status)) this.finalStatuses?.set(key, status);
    return status;
  }

  async list(auth: AuthContext, mindId: string, limit: number, cursor?: string): Promise<Page<SnapshotStatus>> {
    await this.minds.require(auth, mindId);
    const rows = await this.store.repos.snapshots.page(auth.accountId, mindId, decodeCursor(cursor), limit);
    return toPage(rows, limit, toStatus, (r) => r.createdAt);
  }
}

export const snapshotNotReady = () =>
  new DomainError('conflict', 'snapshot_not_ready', 'The mind has no completed snapshot yet: wait until a snapshot status is "completed".');
