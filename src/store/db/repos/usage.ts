import type { Kysely, Transaction } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { sql } from '../kysely.ts';
import type { Database, UsageKeyDailyTable } from '../schema.ts';

export interface UsageRow {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  requests: number;
}

/** One key's day as a flush adds it: the counts, its latency buckets and the twins it simulated. */
export interface KeyDayRow extends UsageKeyDailyTable {
  latencyBuckets: Array<{ bucket: number; count: number }>;
  simulatedTwins: string[];
}

/** A key's (or every key of an account's) usage over days: sums, merged buckets, distinct twins. */
export interface KeyUsageTotals {
  successCount: number;
  errorCount: number;
  latencySumMs: number;
  latencyMinMs: number | null;
  latencyMaxMs: number | null;
  simulations: number;
  snapshotsCreated: number;
  psychometricsRequests: number;
  latencyBuckets: Array<{ bucket: number; count: number }>;
  simulatedTwins: string[];
}

/** Which keys a read covers: one key (of its account), or every key of the account. */
export interface KeyScope {
  accountId: string;
  apiKeyId?: string;
}

/** Rows per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 300;

/** The smaller (or larger) of the stored and the incoming value, either of which may be null. */
const keep = (col: 'latency_min_ms' | 'latency_max_ms', op: '<' | '>') => {
  const incoming = sql.ref(`excluded.${col}`);
  const stored = sql.ref(`usage_key_daily.${col}`);
  return sql<number | null>`case when ${incoming} is null then ${stored} when ${stored} is null or ${incoming} ${sql.raw(op)} ${stored} then ${incoming} else ${stored} end`;
};

/** Requests per account and day, and usage per API key and day, added to by the usage meter's flushes. */
export class UsageRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

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

  // Per API key and day: usage_key_daily with its latency buckets and simulated twins.

  /** Adds each key-day to the stored one, in one transaction (a failed flush adds nothing); rows unique by (key, day). */
  async addKeyDays(rows: KeyDayRow[]): Promise<void> {
    if (rows.length === 0) return;
    const write = async (db: Kysely<Database>) => {
      const days = rows.map(({ latencyBuckets: _b, simulatedTwins: _t, ...day }) => day);
      for (let i = 0; i < days.length; i += CHUNK) {
        await db
          .insertInto('usage_key_daily')
          .values(days.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc.columns(['api_key_id', 'day']).doUpdateSet((eb) => ({
              success_count: eb('usage_key_daily.success_count', '+', eb.ref('excluded.success_count')),
              error_count: eb('usage_key_daily.error_count', '+', eb.ref('excluded.error_count')),
              latency_sum_ms: eb('usage_key_daily.latency_sum_ms', '+', eb.ref('excluded.latency_sum_ms')),
              latency_min_ms: keep('latency_min_ms', '<'),
              latency_max_ms: keep('latency_max_ms', '>'),
              simulations: eb('usage_key_daily.simulations', '+', eb.ref('excluded.simulations')),
              snapshots_created: eb('usage_key_daily.snapshots_created', '+', eb.ref('excluded.snapshots_created')),
              psychometrics_requests: eb('usage_key_daily.psychometrics_requests', '+', eb.ref('excluded.psychometrics_requests')),
            })),
          )
          .execute();
      }
      const of = (r: KeyDayRow) => ({ api_key_id: r.api_key_id, day: r.day, account_id: r.account_id });
      const buckets = rows.flatMap((r) => r.latencyBuckets.map((b) => ({ ...of(r), ...b })));
      for (let i = 0; i < buckets.length; i += CHUNK) {
        await db
          .insertInto('usage_latency_buckets')
          .values(buckets.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc.columns(['api_key_id', 'day', 'bucket']).doUpdateSet((eb) => ({ count: eb('usage_latency_buckets.count', '+', eb.ref('excluded.count')) })),
          )
          .execute();
      }
      // Only twins that still exist: a mind erased by another process (admin erase-mind) while this
      // one held its simulations in memory must not come back as a usage row naming its twin. On
      // PostgreSQL the twins are locked (FOR SHARE) so an erase running now waits or is waited for.
      const named = [...new Set(rows.flatMap((r) => r.simulatedTwins))];
      const alive = new Set<string>();
      for (let i = 0; i < named.length; i += CHUNK) {
        const found = await db
          .selectFrom('digital_twins')
          .select('id')
          .where('id', 'in', named.slice(i, i + CHUNK))
          .$if(dialectOf(db) === 'postgres', (q) => q.forShare())
          .execute();
        for (const t of found) alive.add(t.id);
      }
      const twins = rows.flatMap((r) => r.simulatedTwins.filter((t) => alive.has(t)).map((digital_twin_id) => ({ ...of(r), digital_twin_id })));
      for (let i = 0; i < twins.length; i += CHUNK) {
        await db
          .insertInto('usage_simulated_twins')
          .values(twins.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['api_key_id', 'day', 'digital_twin_id']).doNothing())
          .execute();
      }
    };
    await (this.db.isTransaction ? write(this.db) : this.db.transaction().execute((trx: Transaction<Database>) => write(trx)));
  }

  /** The stored usage of a key (or of every key of an account) from `fromDay` to `toDay` inclusive. */
  async keyTotals(scope: KeyScope, fromDay: string, toDay: string): Promise<KeyUsageTotals> {
    const key = scope.apiKeyId;
    const sums = await this.db
      .selectFrom('usage_key_daily')
      .select((eb) => [
        eb.fn.sum<number | null>('success_count').as('success'),
        eb.fn.sum<number | null>('error_count').as('errors'),
        eb.fn.sum<number | null>('latency_sum_ms').as('latency_sum'),
        eb.fn.min<number | null>('latency_min_ms').as('latency_min'),
        eb.fn.max<number | null>('latency_max_ms').as('latency_max'),
        eb.fn.sum<number | null>('simulations').as('simulations'),
        eb.fn.sum<number | null>('snapshots_created').as('snapshots'),
        eb.fn.sum<number | null>('psychometrics_requests').as('psychometrics'),
      ])
      .where('account_id', '=', scope.accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .$if(key !== undefined, (q) => q.where('api_key_id', '=', key ?? ''))
      .executeTakeFirstOrThrow();
    const buckets = await this.db
      .selectFrom('usage_latency_buckets')
      .select((eb) => ['bucket', eb.fn.sum<number>('count').as('count')])
      .where('account_id', '=', scope.accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .$if(key !== undefined, (q) => q.where('api_key_id', '=', key ?? ''))
      .groupBy('bucket')
      .execute();
    const twins = await this.db
      .selectFrom('usage_simulated_twins')
      .select('digital_twin_id')
      .distinct()
      .where('account_id', '=', scope.accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .$if(key !== undefined, (q) => q.where('api_key_id', '=', key ?? ''))
      .execute();
    const n = (v: unknown) => Number(v ?? 0);
    const opt = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      successCount: n(sums.success),
      errorCount: n(sums.errors),
      latencySumMs: n(sums.latency_sum),
      latencyMinMs: opt(sums.latency_min),
      latencyMaxMs: opt(sums.latency_max),
      simulations: n(sums.simulations),
      snapshotsCreated: n(sums.snapshots),
      psychometricsRequests: n(sums.psychometrics),
      latencyBuckets: buckets.map((b) => ({ bucket: Number(b.bucket), count: Number(b.count) })),
      simulatedTwins: twins.map((t) => t.digital_twin_id),
    };
  }

  /** The snapshots the account has now (every status; a deleted mind's are gone). */
  async snapshotsOfAccount(accountId: string): Promise<number> {
    const r = await this.db
      .selectFrom('snapshots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mind_id', 'in', (eb) => eb.selectFrom('minds').select('id').where('account_id', '=', accountId))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}

/**
 * The rate limiter's fixed windows in the database, shared by every process on it: one counter and
 * reset time per key, advanced by a single atomic upsert per request.
 */
export class RateLimitWindowsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

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
