import type { Kysely, Selectable } from 'kysely';
import type { PageCursor } from '../../../kernel/pagination.ts';
import type { AccessLogTable, Database } from '../schema.ts';
import { olderThan } from './keyset.ts';

export type AccessLogRow = Selectable<AccessLogTable>;

export interface AccessLogFilter {
  accountId: string;
  mindId?: string;
  /** Inclusive ISO timestamps. */
  from?: string;
  to?: string;
}

/**
 * The append-only access log (012_privacy): rows are only ever inserted here. The database's
 * triggers refuse updates, and deletes of rows younger than the audit retention (`purgeBefore`).
 */
export class AccessLogRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async append(rows: AccessLogRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('access_log').values(rows).execute();
  }

  /** limit+1 rows, newest first, keyset-paged on (at, id). */
  page(filter: AccessLogFilter, cursor: PageCursor | null, limit: number): Promise<AccessLogRow[]> {
    let q = this.db.selectFrom('access_log').selectAll().where('account_id', '=', filter.accountId);
    if (filter.mindId !== undefined) q = q.where('mind_id', '=', filter.mindId);
    if (filter.from !== undefined) q = q.where('at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('at', '<=', filter.to);
    if (cursor) q = q.where(olderThan(cursor, 'at'));
    return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  }

  /** Every row about one mind of the account, oldest first (the export). */
  ofMind(accountId: string, mindId: string): Promise<AccessLogRow[]> {
    return this.db.selectFrom('access_log').selectAll().where('account_id', '=', accountId).where('mind_id', '=', mindId).orderBy('at').orderBy('id').execute();
  }

  /** Deletes rows older than `before` (the triggers refuse younger ones); answers how many went. */
  async purgeBefore(before: string): Promise<number> {
    const r = await this.db.deleteFrom('access_log').where('at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
