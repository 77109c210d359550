import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';

/**
 * The retention sweep (domain/retention.ts, jobs/retention-sweep.ts) is a job of the queue that
 * schedules its next run when it ends, and every worker schedules one when it starts. At most one
 * sweep may wait in the queue at a time, whatever number of workers start at once: a partial
 * unique index (SQLite and PostgreSQL) refuses a second queued one, and its enqueue is then a no-op.
 * The sweep finds an account's old snapshots by when they were received and its old conversations
 * by their last turn: an index each, so an hourly sweep reads what it erases, not the whole table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index jobs_one_queued_retention_sweep on jobs (kind) where kind = 'retention-sweep' and state = 'queued'`.execute(db);
  await db.schema.createIndex('snapshots_account_created').on('snapshots').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('simulations_account_updated').on('simulations').columns(['account_id', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('simulations_account_updated').ifExists().execute();
  await db.schema.dropIndex('snapshots_account_created').ifExists().execute();
  await sql`drop index if exists jobs_one_queued_retention_sweep`.execute(db);
}
