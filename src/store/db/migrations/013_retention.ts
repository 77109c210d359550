import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';

/**
 * The retention sweep (domain/retention.ts, jobs/retention-sweep.ts) is a job of the queue that
 * schedules its next run when it ends, and every worker schedules one when it starts. At most one
 * sweep may wait in the queue at a time, whatever number of workers start at once: a partial
 * unique index (SQLite and PostgreSQL) refuses a second queued one, and its enqueue is then a no-op.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index jobs_one_queued_retention_sweep on jobs (kind) where kind = 'retention-sweep' and state = 'queued'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists jobs_one_queued_retention_sweep`.execute(db);
}
