import type { Logger } from 'pino';
import type { JobQueue, ClaimedJob } from '../store/queue/job-queue.ts';

export interface JobHandler {
  run(payload: unknown): Promise<void>;
  /** Called once when a job has used up its attempts. */
  exhausted(payload: unknown, error: string): Promise<void>;
}

export interface WorkerSettings {
  id: string;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
}

const backoffMs = (attempt: number) => Math.min(60_000, 1000 * 2 ** (attempt - 1));

/** Claims jobs from the queue and runs their handlers, keeping each lease alive while it runs. */
export class Worker {
  private running = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** The jobs in hand, to give back when stopping takes too long. */
  private readonly held = new Map<string, ClaimedJob>();
  private readonly released = new Set<string>();
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  private readonly queue: JobQueue;
  private readonly handlers: Record<string, JobHandler>;
  private readonly settings: WorkerSettings;
  private readonly log: Logger;
  constructor(queue: JobQueue, handlers: Record<string, JobHandler>, settings: WorkerSettings, log: Logger) {
    this.queue = queue;
    this.handlers = handlers;
    this.settings = settings;
    this.log = log;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Stops claiming, and waits for the jobs in hand to finish; those still running after graceMs
   * are released (handed back to the queue, their attempt not counted) for another worker to run,
   * and the caller then ends their work (closing the analysis pool).
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    const finished = Promise.allSettled([...this.inFlight]).then(() => true);
    const inTime = Number.isFinite(graceMs)
      ? await Promise.race([finished, new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref())])
      : await finished;
    if (inTime) return;
    for (const job of this.held.values()) {
      this.released.add(job.id);
      await this.queue.release(job.id, this.settings.id).catch((err: unknown) => this.log.warn({ err }, 'could not release a job'));
      this.log.warn({ jobId: job.id, kind: job.kind }, 'job released at shutdown');
    }
  }

  /** Nudges the loop to look for work now (e.g. right after an enqueue in this process). */
  poke(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = false;
      try {
        for (const job of await this.queue.reapExhausted()) await this.exhaust(job, 'The worker stopped during every attempt.');
        while (this.running && this.inFlight.size < this.settings.concurrency) {
          const job = await this.queue.claim(this.settings.id, this.settings.leaseMs);
          if (!job) break;
          claimed = true;
          const p = this.execute(job).finally(() => this.inFlight.delete(p));
          this.inFlight.add(p);
        }
      } catch (err) {
        this.log.error({ err }, 'worker loop error');
      }
      if (!claimed || this.inFlight.size >= this.settings.concurrency) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, this.settings.pollMs);
      const finished = [...this.inFlight];
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
      for (const p of finished) void p.then(done, done);
    });
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.handlers[job.kind];
    const { id: workerId, leaseMs } = this.settings;
    if (!handler) {
      await this.queue.fail(job.id, workerId, `No handler for job kind ${job.kind}`);
      return;
    }
    this.held.set(job.id, job);
    const heartbeat = setInterval(() => {
      this.queue.extend(job.id, workerId, leaseMs).catch((err: unknown) => this.log.warn({ err }, 'lease extension failed'));
    }, Math.max(100, Math.floor(leaseMs / 3)));
    try {
      await handler.run(job.payload);
      await this.queue.complete(job.id, workerId);
    } catch (err) {
      if (this.released.has(job.id)) return; // given back at shutdown: another worker runs it
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, err }, 'job attempt failed');
      if (job.attempts >= job.maxAttempts) {
        await this.queue.fail(job.id, workerId, message);
        await this.exhaust(job, message);
      } else {
        await this.queue.retry(job.id, workerId, message, backoffMs(job.attempts));
      }
    } finally {
      clearInterval(heartbeat);
      this.held.delete(job.id);
    }
  }

  private async exhaust(job: ClaimedJob, message: string): Promise<void> {
    try {
      await this.handlers[job.kind]?.exhausted(job.payload, message);
    } catch (err) {
      this.log.error({ err, jobId: job.id }, 'could not record a failed job');
    }
  }
}
