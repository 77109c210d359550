import type { Kysely } from 'kysely';

/**
 * Usage per API key and UTC day, for `GET /usage`: response counts, latency (exact sum, minimum and
 * maximum; a fixed log-scale histogram, one row per bucket, for percentiles), simulations, snapshots
 * created, psychometrics requests and the distinct twins simulated. Every figure is added to (or,
 * for the twins, inserted once) by the usage meter's flushes, so several API processes merge.
 * No foreign keys, as usage_daily: a flush must never fail for a key or account deleted meanwhile.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const ms = 'double precision';
  await db.schema
    .createTable('usage_key_daily')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('success_count', 'integer', (c) => c.notNull())
    .addColumn('error_count', 'integer', (c) => c.notNull())
    .addColumn('latency_sum_ms', ms, (c) => c.notNull())
    .addColumn('latency_min_ms', ms)
    .addColumn('latency_max_ms', ms)
    .addColumn('simulations', 'integer', (c) => c.notNull())
    .addColumn('snapshots_created', 'integer', (c) => c.notNull())
    .addColumn('psychometrics_requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_key_daily_pk', ['api_key_id', 'day'])
    .execute();
  await db.schema.createIndex('usage_key_daily_account').on('usage_key_daily').columns(['account_id', 'day']).execute();

  await db.schema
    .createTable('usage_latency_buckets')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_latency_buckets_pk', ['api_key_id', 'day', 'bucket'])
    .execute();
  await db.schema.createIndex('usage_latency_buckets_account').on('usage_latency_buckets').columns(['account_id', 'day']).execute();

  await db.schema
    .createTable('usage_simulated_twins')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('digital_twin_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_simulated_twins_pk', ['api_key_id', 'day', 'digital_twin_id'])
    .execute();
  await db.schema.createIndex('usage_simulated_twins_account').on('usage_simulated_twins').columns(['account_id', 'day']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_simulated_twins').execute();
  await db.schema.dropTable('usage_latency_buckets').execute();
  await db.schema.dropTable('usage_key_daily').execute();
}
