import type { Logger } from 'pino';
import type { RetentionService } from '../domain/retention.ts';
import type { JobHandler } from './worker.ts';

/**
 * The retention sweep as a job of the queue (no scheduler of its own): each run erases what is past
 * its account's retention (domain/retention.ts), then queues the next run `intervalMs` later. A
 * worker queues one at its start (at most one waits in the queue: 013_retention), so the sweep
 * runs on whichever worker claims it, once per interval, and resumes after a restart. A failed
 * sweep is logged and the next one queued all the same: what it left is erased next time.
 */
export class RetentionSweepJob implements JobHandler {
  private readonly retention: RetentionService;
  private readonly intervalMs: number;
  private readonly log: Logger;
  constructor(retention: RetentionService, intervalMs: number, log: Logger) {
    this.retention = retention;
    this.intervalMs = intervalMs;
    this.log = log;
  }

  /** Queues a sweep now, unless one waits already: a worker calls it at its start. */
  start(): Promise<boolean> {
    return this.retention.schedule(0);
  }

  async run(): Promise<void> {
    try {
      const report = await this.retention.sweep();
      if (report.snapshots + report.simulations + report.panels + report.corrections > 0) this.log.info({ retention: report }, 'retention sweep: data older than the accounts\' retention erased');
    } catch (err) {
      this.log.warn({ err }, 'the retention sweep failed; the next one erases what it left');
    }
    await this.retention.schedule(this.intervalMs);
  }

  /** Ended without finishing (its worker died on each attempt): the chain goes on. */
  async exhausted(): Promise<void> {
    await this.retention.schedule(this.intervalMs);
  }
}
