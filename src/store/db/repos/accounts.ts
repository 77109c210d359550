import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AccountsTable, ApiKeysTable, Database } from '../schema.ts';

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export class AccountsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  insert(row: Insertable<AccountsTable>): Promise<unknown> {
    return this.db.insertInto('accounts').values(row).execute();
  }

  byId(id: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byEmail(email: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The account whose address has this skeleton (one that looks the same). */
  byEmailKey(key: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('email_key', '=', key).executeTakeFirst();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  }

  async setTier(id: string, tier: AccountRow['tier']): Promise<boolean> {
    const r = await this.db.updateTable('accounts').set({ tier }).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}

export class ApiKeysRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  insert(row: ApiKeyRow): Promise<unknown> {
    return this.db.insertInto('api_keys').values(row).execute();
  }

  /** The active key with this prefix, joined with its account's tier. */
  activeByPrefix(prefix: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id', 'api_keys.account_id', 'api_keys.key_hash', 'api_keys.last_used_at', 'accounts.tier'])
      .where('api_keys.prefix', '=', prefix)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** An account's active keys, newest first. */
  activeForAccount(accountId: string) {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async revokeForAccount(accountId: string, id: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async revoke(prefix: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('prefix', '=', prefix)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
