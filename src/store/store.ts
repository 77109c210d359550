import type { Kysely } from 'kysely';
import { dialectOf } from './db/dialect.ts';
import { sql } from './db/kysely.ts';
import type { Database } from './db/schema.ts';
import { makeRepos, type Repos } from './db/repos/index.ts';
import type { JobQueue } from './queue/job-queue.ts';

export interface TxScope {
  repos: Repos;
  /** The queue bound to the same transaction: a job enqueued here exists iff the transaction commits. */
  queue: JobQueue;
}

/** The database side of the service: repositories, and transactions that span repositories and the queue. */
export class Store {
  readonly repos: Repos;
  readonly queue: JobQueue;

  readonly db: Kysely<Database>;
  private readonly queueFor: (db: Kysely<Database>) => JobQueue;
  constructor(db: Kysely<Database>, queueFor: (db: Kysely<Database>) => JobQueue) {
    this.db = db;
    this.queueFor = queueFor;
    this.repos = makeRepos(db);
    this.queue = queueFor(db);
  }

  transaction<T>(fn: (tx: TxScope) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn({ repos: makeRepos(trx), queue: this.queueFor(trx) }));
  }

  private readonly beforeScrub: Array<() => Promise<void>> = [];
  private retry: NodeJS.Timeout | null = null;

  /**
   * Runs `fn` first whenever an erasure is scrubbed: whatever keeps words beside the database (the
   * journal of answered turns, domain/pending-turns.ts) hands them over, so that what the erasure
   * deleted is not written back and the file that held them is removed.
   */
  onScrub(fn: () => Promise<void>): void {
    this.beforeScrub.push(fn);
  }

  /**
   * After an erasure committed (a mind, a snapshot, a conversation, a panel, the retention sweep):
   * leaves what it deleted in none of the database's files. SQLite zeroes deleted content as it
   * deletes it (`secure_delete`, db/sqlite.ts), but the write-ahead log still holds the pages as they
   * were before; a TRUNCATE checkpoint copies the last version of each page into the database file
   * and empties the log. It waits (busy_timeout) for other connections' reads and writes to end; if
   * one still holds the log (another process's long read), it is tried again every second, up to
   * a minute, in the background. On PostgreSQL nothing is done here (docs/PRIVACY.md: what VACUUM reaches).
   * Answers whether the log was emptied (always true on PostgreSQL).
   */
  async scrub(): Promise<boolean> {
    for (const fn of this.beforeScrub) await fn();
    if (dialectOf(this.db) !== 'sqlite') return true;
    if (await this.checkpoint()) return true;
    this.retryCheckpoint(60);
    return false;
  }

  /** A TRUNCATE checkpoint of SQLite's write-ahead log; false when a reader or writer kept it from completing. */
  private async checkpoint(): Promise<boolean> {
    const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(this.db);
    return rows[0]?.busy === 0;
  }

  private retryCheckpoint(left: number): void {
    if (this.retry || left <= 0) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.checkpoint().then(
        (done) => done || this.retryCheckpoint(left - 1),
        () => this.retryCheckpoint(left - 1),
      );
    }, 1000);
    this.retry.unref();
  }

  destroy(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    return this.db.destroy();
  }
}
