import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../schema.ts';

export type SessionRow = Selectable<SessionsTable>;

/** Dashboard sessions by the hash of their id. */
export class SessionsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async upsert(row: SessionRow): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values(row)
      .onConflict((oc) =>
        oc.column('id_hash').doUpdateSet({ account_id: row.account_id, data: row.data, expires_at: row.expires_at }),
      )
      .execute();
  }

  /** The live session with this id hash; an expired one reads as absent. */
  live(idHash: string, now: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteExpired(now: string): Promise<number> {
    const r = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Ends every session of an account (its password changed). */
  async deleteForAccount(accountId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
  }
}
