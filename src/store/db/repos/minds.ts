import type { Kysely, Selectable } from 'kysely';
import type { PageCursor } from '../../../kernel/pagination.ts';
import type { Database, DigitalTwinsTable, MindsTable } from '../schema.ts';
import { olderThan } from './keyset.ts';

export type MindRow = Selectable<MindsTable>;
export type DigitalTwinRow = Selectable<DigitalTwinsTable>;

export class MindsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertWithTwin(mind: MindRow, twin: DigitalTwinRow): Promise<void> {
    await this.db.insertInto('minds').values(mind).execute();
    await this.db.insertInto('digital_twins').values(twin).execute();
  }

  byId(accountId: string, id: string): Promise<MindRow | undefined> {
    return this.db
      .selectFrom('minds')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** limit+1 rows so the caller can tell whether another page exists. */
  page(accountId: string, cursor: PageCursor | null, limit: number): Promise<MindRow[]> {
    let q = this.db.selectFrom('minds').selectAll().where('account_id', '=', accountId);
    if (cursor) q = q.where(olderThan(cursor));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }

  async rename(accountId: string, id: string, name: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('minds')
      .set({ name, updated_at: at })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The mind whatever its account (operator commands only: the API always scopes by account). */
  anyAccount(id: string): Promise<MindRow | undefined> {
    return this.db.selectFrom('minds').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Deletes the mind and, explicitly (not relying on cascades), every row that hangs off it or
   * names it: twins, artifacts, snapshots with their memories, profiles, reflections, transcripts
   * and psychometrics, and the snapshots' jobs (their payload holds the snapshot id). Answers the
   * deleted snapshots' ids.
   */
  async delete(accountId: string, id: string): Promise<{ snapshotIds: string[] }> {
    const snapshotIds = (await this.db.selectFrom('snapshots').select('id').where('mind_id', '=', id).execute()).map((r) => r.id);
    for (let i = 0; i < snapshotIds.length; i += 100) {
      const batch = snapshotIds.slice(i, i + 100);
      await this.db
        .deleteFrom('jobs')
        .where((eb) => eb.or(batch.map((sid) => eb('payload', 'like', `%"snapshotId":"${sid}"%`))))
        .execute();
    }
    const ofMind = this.db.selectFrom('snapshots').select('id').where('mind_id', '=', id);
    await this.db.deleteFrom('memories').where('snapshot_id', 'in', ofMind).execute();
    await this.db.deleteFrom('snapshot_reflections').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_profiles').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_transcripts').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshot_psychometrics').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('snapshots').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('artifacts').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('digital_twins').where('mind_id', '=', id).execute();
    await this.db.deleteFrom('minds').where('id', '=', id).where('account_id', '=', accountId).execute();
    return { snapshotIds };
  }

  twinsOf(mindId: string): Promise<DigitalTwinRow[]> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('mind_id', '=', mindId)
      .orderBy('created_at')
      .execute();
  }

  twin(mindId: string, twinId: string): Promise<DigitalTwinRow | undefined> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('id', '=', twinId)
      .where('mind_id', '=', mindId)
      .executeTakeFirst();
  }
}
