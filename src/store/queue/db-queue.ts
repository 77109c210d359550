import type { Kysely, Selectable } from 'kysely';
import { sql } from '../db/kysely.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Database, JobsTable } from '../db/schema.ts';
import type { ClaimedJob, EnqueueOptions, JobQueue } from './job-queue.ts';

const toClaimed = (r: Selectable<JobsTable>): ClaimedJob => ({
  id: r.id,
  kind: r.kind,
  payload: JSON.parse(r.payload) as unknown,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
});

/**
 * The queue as a table in the service's own database, so a job is enqueued in the same
 * transaction as the row it works on. Claims are leases: an expired lease makes the job
 * claimable again (at-least-once), and attempts are bounded. Runs on SQLite (one writer at a
 * time) and on PostgreSQL (row locks skipped by concurrent claims).
 *
 * Groups take turns: of the runnable jobs, a claim takes one of the group with the fewest jobs
 * running, then of the group whose last claim is oldest, then the one due first. So an account
 * that queued many slow files delays another account's next file by one file at most (per worker).
 */
export class DbJobQueue implements JobQueue {
  private readonly db: Kysely<Database>;
  private readonly rt: Runtime;
  private readonly defaultMaxAttempts: number;
  constructor(db: Kysely<Database>, rt: Runtime, defaultMaxAttempts: number) {
    this.db = db;
    this.rt = rt;
    this.defaultMaxAttempts = defaultMaxAttempts;
    this.skipLocked = dialectOf(db) === 'postgres';
  }

  /** PostgreSQL: claim with FOR UPDATE SKIP LOCKED, so concurrent workers never take the same row. */
  private readonly skipLocked: boolean;

  private at(offsetMs = 0): string {
    return new Date(this.rt.now().getTime() + offsetMs).toISOString();
  }

  async enqueue(kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<string> {
    const id = this.rt.newId();
    const now = this.at();
    await this.db
      .insertInto('jobs')
      .values({
        id,
        kind,
        payload: JSON.stringify(payload),
        state: 'queued',
        run_at: this.at(opts.delayMs ?? 0),
        attempts: 0,
        max_attempts: opts.maxAttempts ?? this.defaultMaxAttempts,
        lease_until: null,
        locked_by: null,
        last_error: null,
        created_at: now,
        updated_at: now,
        group_key: opts.group ?? null,
        claimed_at: null,
      })
      .execute();
    return id;
  }

  async claim(workerId: string, leaseMs: number): Promise<ClaimedJob | null> {
    const now = this.at();
    let next = this.db
      .selectFrom('jobs as j')
      .select('j.id')
      .where((eb) =>
        eb.or([
          eb.and([eb('j.state', '=', 'queued'), eb('j.run_at', '<=', now)]),
          eb.and([eb('j.state', '=', 'running'), eb('j.lease_until', '<', now), eb('j.attempts', '<', eb.ref('j.max_attempts'))]),
        ]),
      )
      // A job without a group has none of these (NULL = NULL is not true): it goes first.
      .orderBy((eb) =>
        eb
          .selectFrom('jobs as r')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('r.group_key', '=', 'j.group_key')
          .where('r.state', '=', 'running')
          .where('r.lease_until', '>=', now),
      )
      .orderBy((eb) =>
        eb
          .selectFrom('jobs as c')
          .select((e) => e.fn.coalesce(e.fn.max('c.claimed_at'), sql.lit('')).as('t'))
          .whereRef('c.group_key', '=', 'j.group_key'),
      )
      .orderBy('j.run_at')
      .limit(1);
    if (this.skipLocked) next = next.forUpdate().skipLocked();
    const row = await this.db
      .updateTable('jobs')
      .set({
        state: 'running',
        attempts: sql`attempts + 1`,
        lease_until: this.at(leaseMs),
        locked_by: workerId,
        updated_at: now,
        claimed_at: now,
      })
      .where('id', '=', (eb) => eb.selectFrom(next.as('n')).select('n.id'))
      .returningAll()
      .executeTakeFirst();
    return row ? toClaimed(row) : null;
  }

  async extend(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ lease_until: this.at(leaseMs), updated_at: this.at() })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  private async finish(jobId: string, workerId: string, set: Partial<Selectable<JobsTable>>): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ ...set, lease_until: null, updated_at: this.at() })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'running')
      .execute();
  }

  complete(jobId: string, workerId: string): Promise<void> {
    return this.finish(jobId, workerId, { state: 'done' });
  }

  retry(jobId: string, workerId: string, error: string, delayMs: number): Promise<void> {
    return this.finish(jobId, workerId, { state: 'queued', run_at: this.at(delayMs), last_error: error });
  }

  fail(jobId: string, workerId: string, error: string): Promise<void> {
    return this.finish(jobId, workerId, { state: 'failed', last_error: error });
  }

  async release(jobId: string, workerId: string): Promise<void> {
    const now = this.at();
    await this.db
      .updateTable('jobs')
      .set({ state: 'queued', run_at: now, attempts: sql`attempts - 1`, lease_until: null, locked_by: null, updated_at: now })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'running')
      .execute();
  }

  async reapExhausted(): Promise<ClaimedJob[]> {
    const now = this.at();
    const rows = await this.db
      .updateTable('jobs')
      .set({ state: 'failed', lease_until: null, updated_at: now, last_error: 'The worker stopped during every attempt.' })
      .where('state', '=', 'running')
      .where('lease_until', '<', now)
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .returningAll()
      .execute();
    return rows.map(toClaimed);
  }
}
