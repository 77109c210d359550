import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** Service-wide values that must be shared by every process (e.g. the URL-signing secret). */
export class SettingsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async get(key: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('service_settings').select('value').where('key', '=', key).executeTakeFirst();
    return r?.value;
  }

  /** Stores the value, replacing any (e.g. the audit retention each process writes at start). */
  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('service_settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** Stores the value unless one exists; returns whichever value won. */
  async getOrInit(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('service_settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.get(key)) ?? value;
  }
}
