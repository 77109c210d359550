import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export interface UsageRow {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  requests: number;
}

/** Rows per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 300;

/** Requests per account and day, added to by the usage meter's flushes. */
export class UsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds each row's requests to the stored count of its (account, day); rows must be unique by that pair. */
  async add(rows: UsageRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db
        .insertInto('usage_daily')
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
            requests: eb('usage_daily.requests', '+', eb.ref('excluded.requests')),
          })),
        )
        .execute();
    }
  }

  /** The stored days of one account from `fromDay` to `toDay` inclusive. */
  async range(accountId: string, fromDay: string, toDay: string): Promise<Array<{ day: string; requests: number }>> {
    return this.db
      .selectFrom('usage_daily')
      .select(['day', 'requests'])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .execute();
  }
}

/**
 * The rate limiter's fixed windows in the database, shared by every process on it: one counter and
 * reset time per key, advanced by a single atomic upsert per request.
 */
export class RateLimitWindowsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts `n` requests (default one) for `key`; starts a new window of `windowMs` when none is
   * running at `nowMs`. Returns the window's count after adding them.
   */
  async hit(key: string, windowMs: number, nowMs: number, n = 1): Promise<{ hits: number; resetAt: number }> {
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({ key, hits: n, reset_at: nowMs + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const expired = eb('rate_limit_windows.reset_at', '<=', nowMs);
          return {
            hits: eb.case().when(expired).then(n).else(eb('rate_limit_windows.hits', '+', n)).end(),
            reset_at: eb.case().when(expired).then(nowMs + windowMs).else(eb.ref('rate_limit_windows.reset_at')).end(),
          };
        }),
      )
      .returning(['hits', 'reset_at'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
  }

  /** The running window of `key` at `nowMs`, without counting; null when none. */
  async peek(key: string, nowMs: number): Promise<{ hits: number; resetAt: number } | null> {
    const row = await this.db
      .selectFrom('rate_limit_windows')
      .select(['hits', 'reset_at'])
      .where('key', '=', key)
      .where('reset_at', '>', nowMs)
      .executeTakeFirst();
    return row ? { hits: Number(row.hits), resetAt: Number(row.reset_at) } : null;
  }
}
