import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { dialectOf } from '../dialect.ts';

/**
 * Requests per account and UTC day (the usage meter), and the rate limiter's fixed windows when
 * they are kept in the database (RATE_LIMIT_STORE=database), so every API process shares them.
 * usage_daily has no foreign key on purpose: a flush must never fail for an account deleted meanwhile.
 * On PostgreSQL the windows are UNLOGGED: no WAL flush per counted request (a crash or a failover
 * only resets the running minute), which is most of the cost of a durable write per request.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_daily')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day'])
    .execute();

  const windows = db.schema.createTable('rate_limit_windows');
  await (dialectOf(db) === 'postgres' ? windows.modifyFront(sql`unlogged`) : windows)
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_windows').execute();
  await db.schema.dropTable('usage_daily').execute();
}
