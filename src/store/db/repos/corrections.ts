import type { Kysely, Selectable } from 'kysely';
import type { PageCursor } from '../../../kernel/pagination.ts';
import type { Correction, StoredCorrection } from '../../../domain/correction.ts';
import type { CorrectionsTable, Database } from '../schema.ts';
import { olderThan } from './keyset.ts';

export type CorrectionRow = Selectable<CorrectionsTable>;

export const toCorrection = (r: CorrectionRow): Correction => ({
  id: r.id,
  mindId: r.mind_id,
  scenario: r.scenario,
  answer: r.answer,
  simulationId: r.simulation_id,
  note: r.note,
  createdAt: r.created_at,
  createdBy: r.created_by,
});

const toRow = (c: StoredCorrection): CorrectionRow => ({
  id: c.id,
  mind_id: c.mindId,
  account_id: c.accountId,
  scenario: c.scenario,
  answer: c.answer,
  simulation_id: c.simulationId,
  note: c.note,
  created_at: c.createdAt,
  created_by: c.createdBy,
});

/** A mind's corrections (015_corrections). Every lookup is scoped by account and mind. */
export class CorrectionsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async insert(c: StoredCorrection): Promise<void> {
    await this.db.insertInto('corrections').values(toRow(c)).execute();
  }

  async byId(accountId: string, mindId: string, id: string): Promise<Correction | undefined> {
    const r = await this.db
      .selectFrom('corrections')
      .selectAll()
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return r && toCorrection(r);
  }

  /** Up to limit+1 corrections of a mind after the cursor, newest first. */
  async page(accountId: string, mindId: string, cursor: PageCursor | null, limit: number): Promise<Correction[]> {
    let q = this.db.selectFrom('corrections').selectAll().where('mind_id', '=', mindId).where('account_id', '=', accountId);
    if (cursor) q = q.where(olderThan(cursor));
    return (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute()).map(toCorrection);
  }

  async countOf(accountId: string, mindId: string): Promise<number> {
    const r = await this.db
      .selectFrom('corrections')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Every correction of a mind, oldest first: what the mind answers from (and its export). */
  async ofMind(mindId: string): Promise<Correction[]> {
    const rows = await this.db.selectFrom('corrections').selectAll().where('mind_id', '=', mindId).orderBy('created_at').orderBy('id').execute();
    return rows.map(toCorrection);
  }

  async delete(accountId: string, mindId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('corrections').where('id', '=', id).where('mind_id', '=', mindId).where('account_id', '=', accountId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Erased with the mind (its deletion, a withdrawal of consent). */
  async deleteOfMind(mindId: string): Promise<void> {
    await this.db.deleteFrom('corrections').where('mind_id', '=', mindId).execute();
  }

  /** Removes one correction the retention sweep found (any mind of the account). */
  async deleteById(accountId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('corrections').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
