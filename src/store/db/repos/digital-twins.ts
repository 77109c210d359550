import type { Kysely, Selectable } from 'kysely';
import type { Database, DigitalTwinsTable } from '../schema.ts';

export type TwinRow = Selectable<DigitalTwinsTable>;

/** A mind's digital twins: the default one made with the mind, and those added later. */
export class DigitalTwinsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The mind's twins, the default first, then in the order they were made. */
  ofMind(accountId: string, mindId: string): Promise<TwinRow[]> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  byId(accountId: string, mindId: string, id: string): Promise<TwinRow | undefined> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** The twin made with the mind (the earliest, for a mind that somehow has none marked). */
  defaultOf(mindId: string): Promise<TwinRow | undefined> {
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('mind_id', '=', mindId)
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  async insert(row: TwinRow): Promise<void> {
    await this.db.insertInto('digital_twins').values(row).execute();
  }

  async rename(accountId: string, mindId: string, id: string, name: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('digital_twins')
      .set({ name, updated_at: at })
      .where('id', '=', id)
      .where('mind_id', '=', mindId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
