import type { UsageRepo } from '../store/db/repos/usage.ts';
import type { Runtime } from '../kernel/runtime.ts';

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const SEP = '\n';

/**
 * Requests per account and UTC day. Counting is in memory (no database write per request); the
 * counts are added to the database every `flushMs` and on close, one upsert per (account, day).
 * A process killed without SIGTERM loses at most its last `flushMs` of counts.
 */
export class UsageService {
  private pending = new Map<string, number>();
  /** Flushes and reads run one at a time, so a read never counts a flush twice or misses it. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repo: UsageRepo,
    private readonly rt: Runtime,
    flushMs: number,
    private readonly onFlushError: (err: unknown) => void = () => {},
  ) {
    this.timer = setInterval(() => void this.flush().catch((err: unknown) => this.onFlushError(err)), flushMs);
    this.timer.unref();
  }

  /** Counts one request of the account, today (UTC). */
  record(accountId: string): void {
    const k = accountId + SEP + this.today();
    this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
  }

  /** The current UTC day, formatted once per day rather than per request. */
  private day = { name: '', from: 0, to: -1 };
  private today(): string {
    const t = this.rt.now().getTime();
    if (t < this.day.from || t >= this.day.to) {
      const from = t - (t % DAY_MS);
      this.day = { name: dayOf(from), from, to: from + DAY_MS };
    }
    return this.day.name;
  }

  /** Writes the counts gathered so far; on failure they are kept for the next flush. */
  flush(): Promise<void> {
    return this.exclusive(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const rows = [...batch].map(([k, requests]) => {
        const [account_id = '', day = ''] = k.split(SEP);
        return { account_id, day, requests };
      });
      try {
        await this.repo.add(rows);
      } catch (err) {
        for (const [k, n] of batch) this.pending.set(k, (this.pending.get(k) ?? 0) + n);
        throw err;
      }
    });
  }

  /** Requests per day of the last `days` UTC days (today included), oldest first, zero-filled. */
  daily(accountId: string, days = 30): Promise<Array<{ day: string; requests: number }>> {
    return this.exclusive(async () => {
      const today = Date.parse(dayOf(this.rt.now().getTime()));
      const list = Array.from({ length: Math.max(0, days) }, (_, i) => dayOf(today - (days - 1 - i) * DAY_MS));
      if (list.length === 0) return [];
      const counts = new Map<string, number>();
      for (const r of await this.repo.range(accountId, list[0] ?? '', list[list.length - 1] ?? '')) counts.set(r.day, Number(r.requests));
      for (const day of list) {
        const unflushed = this.pending.get(accountId + SEP + day);
        if (unflushed) counts.set(day, (counts.get(day) ?? 0) + unflushed);
      }
      return list.map((day) => ({ day, requests: counts.get(day) ?? 0 }));
    });
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
