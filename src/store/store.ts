import type { Kysely } from 'kysely';
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

  destroy(): Promise<void> {
    return this.db.destroy();
  }
}
