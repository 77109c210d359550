import type { UsageRepo } from '../store/db/repos/usage.ts';
import type { Runtime } from '../kernel/runtime.ts';
import type { AuthContext } from './accounts.ts';
import {
  countResponse,
  dayOf,
  figuresOfTotals,
  mergeFigures,
  noFigures,
  reportOf,
  rowOfTally,
  type KeyDayTally,
  type MeteredResponse,
  type UsageReport,
  type UsageWindow,
  usageWindow,
} from './usage-figures.ts';

const DAY_MS = 24 * 3600 * 1000;
const SEP = '\n';

/**
 * Requests per account and UTC day, and per API key and UTC day the figures of `GET /usage`
 * (responses by outcome, latency, simulations, snapshots, psychometrics requests, twins simulated).
 * Counting is in memory (no database write per request); the counts are added to the database
 * every `flushMs` and on close, one upsert per (account, day) and per (key, day), so processes
 * sharing a database add up. A process killed without SIGTERM loses at most its last `flushMs` of counts.
 */
export class UsageService {
  private pending = new Map<string, number>();
  private pendingKeys = new Map<string, KeyDayTally>();
  /** Flushes and reads run one at a time, so a read never counts a flush twice or misses it. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  private readonly repo: UsageRepo;
  private readonly rt: Runtime;
  private readonly onFlushError: (err: unknown) => void;
  constructor(repo: UsageRepo, rt: Runtime, flushMs: number, onFlushError: (err: unknown) => void = () => {}) {
    this.repo = repo;
    this.rt = rt;
    this.onFlushError = onFlushError;
    this.timer = setInterval(() => void this.flush().catch((err: unknown) => this.onFlushError(err)), flushMs);
    this.timer.unref();
  }

  /** Counts one request of the account, today (UTC); with `response`, also for its API key. */
  record(accountId: string, response?: MeteredResponse): void {
    const k = accountId + SEP + this.today();
    this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
    if (response) countResponse(this.tally(accountId, response.apiKeyId), response);
  }

  /** A simulation of `digitalTwinId` made with an API key (a dashboard session has none: not counted). */
  simulated(auth: AuthContext, digitalTwinId: string): void {
    if (!auth.apiKeyId) return;
    const t = this.tally(auth.accountId, auth.apiKeyId);
    t.simulations++;
    t.simulatedTwins.add(digitalTwinId);
  }

  /** A snapshot created with an API key. */
  snapshotCreated(auth: AuthContext): void {
    if (auth.apiKeyId) this.tally(auth.accountId, auth.apiKeyId).snapshotsCreated++;
  }

  private tally(accountId: string, apiKeyId: string): KeyDayTally {
    const day = this.today();
    const k = apiKeyId + SEP + day;
    let t = this.pendingKeys.get(k);
    if (!t) this.pendingKeys.set(k, (t = { ...noFigures(), apiKeyId, accountId, day }));
    return t;
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
      const keys = this.pendingKeys;
      this.pendingKeys = new Map();
      let failure: unknown = null;
      if (keys.size > 0) {
        try {
          await this.repo.addKeyDays([...keys.values()].map(rowOfTally));
        } catch (err) {
          for (const [k, t] of keys) {
            const now = this.pendingKeys.get(k);
            if (now) mergeFigures(t, now);
            this.pendingKeys.set(k, t);
          }
          failure = err;
        }
      }
      if (this.pending.size > 0) {
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
          failure ??= err;
        }
      }
      if (failure) throw failure;
    });
  }

  /** The window of UTC days a usage request names (see usageWindow), today being this service's clock's. */
  window(q: { from?: string; to?: string }): UsageWindow {
    return usageWindow(q, this.rt.now());
  }

  /**
   * The usage of one API key (`apiKeyId`) or of every key of the account over a window of UTC
   * days, with this process's counts not yet flushed (other processes' arrive within their flush interval).
   */
  report(scope: { accountId: string; apiKeyId?: string }, window: UsageWindow): Promise<UsageReport> {
    return this.exclusive(async () => {
      const figures = figuresOfTotals(await this.repo.keyTotals(scope, window.from, window.to));
      for (const t of this.pendingKeys.values()) {
        const mine = t.accountId === scope.accountId && (scope.apiKeyId === undefined || t.apiKeyId === scope.apiKeyId);
        if (mine && t.day >= window.from && t.day <= window.to) mergeFigures(figures, t);
      }
      return reportOf(figures, window, await this.repo.snapshotsOfAccount(scope.accountId));
    });
  }

  /** Requests per day of the last `span` UTC days (today included), or of a window, oldest first, zero-filled. */
  daily(accountId: string, span: number | UsageWindow = 30): Promise<Array<{ day: string; requests: number }>> {
    return this.exclusive(async () => {
      const last = typeof span === 'number' ? Date.parse(dayOf(this.rt.now().getTime())) : Date.parse(span.to);
      const days = typeof span === 'number' ? span : Math.round((last - Date.parse(span.from)) / DAY_MS) + 1;
      const list = Array.from({ length: Math.max(0, days) }, (_, i) => dayOf(last - (days - 1 - i) * DAY_MS));
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
