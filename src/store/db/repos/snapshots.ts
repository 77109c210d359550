import type { CompiledQuery, Insertable, Kysely, Selectable } from 'kysely';
import type { PageCursor } from '../../../domain/pagination.ts';
import type { Database, MemoriesTable, SnapshotsTable } from '../schema.ts';
import { olderThan } from './keyset.ts';

export type SnapshotRow = Selectable<SnapshotsTable>;
export type MemoryRow = Selectable<MemoriesTable>;

export class SnapshotsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: SnapshotRow): Promise<unknown> {
    return this.db.insertInto('snapshots').values(row).execute();
  }

  byId(id: string): Promise<SnapshotRow | undefined> {
    return this.db.selectFrom('snapshots').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The hottest query (status polling): compiled once, run with new parameters. */
  private statusQuery: CompiledQuery<SnapshotRow> | null = null;

  async ofMind(accountId: string, mindId: string, id: string): Promise<SnapshotRow | undefined> {
    this.statusQuery ??= this.db
      .selectFrom('snapshots')
      .selectAll()
      .where('id', '=', '$id')
      .where('mind_id', '=', '$mind')
      .where('account_id', '=', '$account')
      .compile();
    const r = await this.db.executeQuery<SnapshotRow>({ ...this.statusQuery, parameters: [id, mindId, accountId] });
    return r.rows[0];
  }

  page(accountId: string, mindId: string, cursor: PageCursor | null, limit: number): Promise<SnapshotRow[]> {
    let q = this.db
      .selectFrom('snapshots')
      .selectAll()
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId);
    if (cursor) q = q.where(olderThan(cursor));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }

  completedIds(mindId: string): Promise<Array<{ id: string }>> {
    return this.db
      .selectFrom('snapshots')
      .select('id')
      .where('mind_id', '=', mindId)
      .where('status', '=', 'completed')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async update(id: string, patch: Partial<SnapshotRow>): Promise<void> {
    await this.db.updateTable('snapshots').set(patch).where('id', '=', id).execute();
  }

  /** Replaces the snapshot's memories: a redelivered job never duplicates them. */
  async replaceMemories(snapshotId: string, rows: Array<Insertable<MemoriesTable>>): Promise<void> {
    await this.db.deleteFrom('memories').where('snapshot_id', '=', snapshotId).execute();
    const chunk = 500;
    for (let i = 0; i < rows.length; i += chunk) {
      await this.db.insertInto('memories').values(rows.slice(i, i + chunk)).execute();
    }
  }

  memoriesOf(snapshotIds: string[]): Promise<MemoryRow[]> {
    if (snapshotIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('memories')
      .selectAll()
      .where('snapshot_id', 'in', snapshotIds)
      .orderBy('snapshot_id')
      .orderBy('seq')
      .execute();
  }
}
