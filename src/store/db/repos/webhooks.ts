import type { Kysely, Selectable } from 'kysely';
import type { PageCursor } from '../../../kernel/pagination.ts';
import type { Database, WebhookCredentialsTable, WebhookEventsTable } from '../schema.ts';
import { olderThan } from './keyset.ts';

export type WebhookCredentialRow = Selectable<WebhookCredentialsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;

export class WebhooksRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** New credentials replace (revoke) the account's previous ones. */
  async rotateCredentials(row: WebhookCredentialRow): Promise<void> {
    await this.db
      .updateTable('webhook_credentials')
      .set({ revoked_at: row.created_at })
      .where('account_id', '=', row.account_id)
      .where('revoked_at', 'is', null)
      .execute();
    await this.db.insertInto('webhook_credentials').values(row).execute();
  }

  activeByUsername(username: string) {
    return this.db
      .selectFrom('webhook_credentials')
      .innerJoin('accounts', 'accounts.id', 'webhook_credentials.account_id')
      .select(['webhook_credentials.account_id', 'webhook_credentials.password_hash', 'accounts.tier'])
      .where('webhook_credentials.username', '=', username)
      .where('webhook_credentials.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  activeForAccount(accountId: string) {
    return this.db
      .selectFrom('webhook_credentials')
      .select(['username', 'created_at'])
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  insertEvent(row: WebhookEventRow): Promise<unknown> {
    return this.db.insertInto('webhook_events').values(row).execute();
  }

  eventsPage(accountId: string, cursor: PageCursor | null, limit: number): Promise<WebhookEventRow[]> {
    let q = this.db.selectFrom('webhook_events').selectAll().where('account_id', '=', accountId);
    if (cursor) q = q.where(olderThan(cursor, 'received_at'));
    return q.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }
}
