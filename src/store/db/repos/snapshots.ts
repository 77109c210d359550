import type { CompiledQuery, ExpressionBuilder, Kysely, Selectable, UpdateObject } from 'kysely';
import { sql } from '../kysely.ts';
import type { PageCursor } from '../../../kernel/pagination.ts';
import { TRANSITIONS, type NewSnapshot, type Snapshot, type SnapshotMove, type SnapshotOutcome } from '../../../domain/snapshot.ts';
import type { Fidelity } from '../../../engines/fidelity-check.ts';
import type { Memory, StoredMemory } from '../../../memory/types.ts';
import type { Database, MemoriesTable, SnapshotsTable } from '../schema.ts';
import { olderThan } from './keyset.ts';
import { PanelAnswersRepo } from './panel-answers.ts';
import { SimulationsRepo } from './simulations.ts';

type SnapshotRow = Selectable<SnapshotsTable>;

/**
 * The snapshots a mind answers from, the one statement of the rule: completed, and linked to one of
 * its twins (to `twinId` only, when given). An unlinked snapshot is kept but never used.
 */
export const answeringSnapshots = (twinId?: string) => (eb: ExpressionBuilder<Database, 'snapshots'>) =>
  eb.and([eb('status', '=', 'completed'), twinId === undefined ? eb('digital_twin_id', 'is not', null) : eb('digital_twin_id', '=', twinId)]);
type MemoryRow = Selectable<MemoriesTable>;

const toSnapshot = (r: SnapshotRow): Snapshot => ({
  id: r.id,
  mindId: r.mind_id,
  accountId: r.account_id,
  artifactId: r.artifact_id,
  digitalTwinId: r.digital_twin_id,
  speaker: r.speaker,
  status: r.status,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  fileKind: r.file_kind,
  person: r.person,
  memoryCount: r.memory_count,
  fidelity: r.fidelity ? (JSON.parse(r.fidelity) as Fidelity) : null,
  reflectionsError: r.reflections_error,
  mindsetDate: r.mindset_date,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
});

const toMemory = (r: MemoryRow): StoredMemory => ({
  snapshotId: r.snapshot_id,
  seq: r.seq,
  speaker: r.speaker,
  text: r.text,
  start: r.start_s,
  end: r.end_s,
  page: r.page,
  question: r.question,
});

/** Snapshots and their memories. Status changes only through the moves of domain/snapshot.ts, each guarded in SQL. */
export class SnapshotsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async insert(s: NewSnapshot): Promise<void> {
    await this.db
      .insertInto('snapshots')
      .values({
        id: s.id,
        mind_id: s.mindId,
        account_id: s.accountId,
        artifact_id: s.artifactId,
        digital_twin_id: s.digitalTwinId,
        speaker: s.speaker,
        status: 'pending',
        error_code: null,
        error_message: null,
        file_kind: null,
        person: null,
        memory_count: null,
        fidelity: null,
        reflections_error: null,
        mindset_date: s.mindsetDate,
        created_at: s.createdAt,
        updated_at: s.createdAt,
        started_at: null,
        completed_at: null,
      })
      .execute();
  }

  async byId(id: string): Promise<Snapshot | undefined> {
    const r = await this.db.selectFrom('snapshots').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toSnapshot(r);
  }

  /** The hottest query (status polling): compiled once, run with new parameters. */
  private statusQuery: CompiledQuery<SnapshotRow> | null = null;

  async ofMind(accountId: string, mindId: string, id: string): Promise<Snapshot | undefined> {
    this.statusQuery ??= this.db
      .selectFrom('snapshots')
      .selectAll()
      .where('id', '=', '$id')
      .where('mind_id', '=', '$mind')
      .where('account_id', '=', '$account')
      .compile();
    const r = await this.db.executeQuery<SnapshotRow>({ ...this.statusQuery, parameters: [id, mindId, accountId] });
    return r.rows[0] && toSnapshot(r.rows[0]);
  }

  /** Up to limit+1 snapshots of a mind after the cursor, newest first. */
  async page(accountId: string, mindId: string, cursor: PageCursor | null, limit: number): Promise<Snapshot[]> {
    let q = this.db
      .selectFrom('snapshots')
      .selectAll()
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId);
    if (cursor) q = q.where(olderThan(cursor));
    return (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()).map(toSnapshot);
  }

  /**
   * The completed snapshots a mind's memory is made of, oldest first: those linked to one of its
   * twins (to `twinId` only, when given). An unlinked snapshot is kept but never used.
   */
  completedIds(mindId: string, twinId?: string): Promise<Array<{ id: string }>> {
    return this.db.selectFrom('snapshots').select('id').where('mind_id', '=', mindId).where(answeringSnapshots(twinId)).orderBy('created_at').orderBy('id').execute();
  }

  /** Which of these minds have a completed snapshot linked to a twin (a memory to answer from). */
  async mindsWithCompleted(mindIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < mindIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('snapshots')
        .select('mind_id')
        .distinct()
        .where('mind_id', 'in', mindIds.slice(i, i + 500))
        .where(answeringSnapshots())
        .execute();
      for (const r of rows) found.add(r.mind_id);
    }
    return found;
  }

  /** How many snapshots the mind has, in every state. */
  async countOf(accountId: string, mindId: string): Promise<number> {
    const r = await this.db
      .selectFrom('snapshots')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Links the snapshot to a twin of its mind, or unlinks it (null); false when there is no such snapshot. */
  async setTwin(accountId: string, mindId: string, id: string, twinId: string | null, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('snapshots')
      .set({ digital_twin_id: twinId, updated_at: at })
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Deletes the snapshot and everything made from it: memories, profile, reflections, transcript,
   * psychometrics, its job, the conversations and panel answers that drew on it; and its artifact when no other snapshot was made from it. The
   * snapshot row goes first, so a job completing at the same moment either finds it gone (and
   * writes nothing) or has committed, and its rows are then deleted here. Answers the artifact's
   * blob key to delete once committed (null: kept for another snapshot), or undefined when there
   * is no such snapshot.
   */
  async delete(accountId: string, mindId: string, id: string): Promise<{ blobKey: string | null } | undefined> {
    const row = await this.db
      .deleteFrom('snapshots')
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .returning(['artifact_id'])
      .executeTakeFirst();
    if (!row) return undefined;
    await this.db.deleteFrom('jobs').where('payload', 'like', `%"snapshotId":"${id}"%`).execute();
    await new SimulationsRepo(this.db).deleteCiting(mindId, id);
    await new PanelAnswersRepo(this.db).deleteCiting(mindId, id);
    for (const table of ['memories', 'snapshot_passages', 'snapshot_profiles', 'snapshot_reflections', 'snapshot_transcripts', 'snapshot_psychometrics'] as const) {
      await this.db.deleteFrom(table).where('snapshot_id', '=', id).execute();
    }
    const shared = await this.db.selectFrom('snapshots').select('id').where('artifact_id', '=', row.artifact_id).executeTakeFirst();
    if (shared) return { blobKey: null };
    const artifact = await this.db.deleteFrom('artifacts').where('id', '=', row.artifact_id).returning(['blob_key']).executeTakeFirst();
    return { blobKey: artifact?.blob_key ?? null };
  }

  /** One move of a snapshot, if its current state allows it; false (nothing changed) otherwise. */
  private async move(id: string, move: SnapshotMove, patch: UpdateObject<Database, 'snapshots'>): Promise<boolean> {
    const { from, to } = TRANSITIONS[move];
    const r = await this.db
      .updateTable('snapshots')
      .set({ ...patch, status: to })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** pending|processing → processing; the first start time is kept. */
  start(id: string, at: string): Promise<boolean> {
    return this.move(id, 'start', { started_at: sql<string>`coalesce(started_at, ${at})`, updated_at: at });
  }

  /** processing → completed, with what processing found. */
  complete(id: string, outcome: SnapshotOutcome, at: string): Promise<boolean> {
    return this.move(id, 'complete', {
      completed_at: at,
      updated_at: at,
      file_kind: outcome.fileKind,
      person: outcome.person,
      memory_count: outcome.memoryCount,
      token_count: outcome.tokenCount,
      fidelity: outcome.fidelity ? JSON.stringify(outcome.fidelity) : null,
      reflections_error: outcome.reflectionsError,
      error_code: null,
      error_message: null,
    });
  }

  /** pending|processing → failed, with why. */
  fail(id: string, error: { code: string; message: string }, at: string): Promise<boolean> {
    return this.move(id, 'fail', { completed_at: at, updated_at: at, error_code: error.code, error_message: error.message });
  }

  /** Replaces the snapshot's memories: a redelivered job never duplicates them. */
  async replaceMemories(snapshotId: string, mindId: string, memories: readonly Memory[]): Promise<void> {
    await this.db.deleteFrom('memories').where('snapshot_id', '=', snapshotId).execute();
    const rows = memories.map((m) => ({
      snapshot_id: snapshotId,
      mind_id: mindId,
      seq: m.seq,
      speaker: m.speaker,
      text: m.text,
      start_s: m.start,
      end_s: m.end,
      page: m.page,
      question: m.question,
    }));
    const chunk = 500;
    for (let i = 0; i < rows.length; i += chunk) {
      await this.db.insertInto('memories').values(rows.slice(i, i + chunk)).execute();
    }
  }

  /** The memories of these snapshots, by snapshot then position. */
  async memoriesOf(snapshotIds: readonly string[]): Promise<StoredMemory[]> {
    if (snapshotIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('memories')
      .selectAll()
      .where('snapshot_id', 'in', [...snapshotIds])
      .orderBy('snapshot_id')
      .orderBy('seq')
      .execute();
    return rows.map(toMemory);
  }
}
