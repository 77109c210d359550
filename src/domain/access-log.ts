import type { AccessLogRow } from '../store/db/repos/access-log.ts';
import type { Store } from '../store/store.ts';
import { invalid, notFound } from '../kernel/errors.ts';
import { decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { AuthContext } from './accounts.ts';

/** The service_settings key the access_log triggers read (012_privacy): rows younger than this many days cannot be deleted. */
export const AUDIT_RETENTION_SETTING = 'audit_retention_days';
/** The purge deletes rows a little older than the retention, so a clock a little ahead of the database's never trips the trigger. */
const PURGE_MARGIN_MS = 3600_000;
/** Rows per INSERT: far below SQLite's and PostgreSQL's limits on bound parameters (8 per row). */
const INSERT_CHUNK = 500;

/**
 * Who did it: an API key (`key:<id>`), a dashboard session (`user:<accountId>`), the person behind
 * a mind through a review link (`review-link:<link id>`), the operator's CLI, or a scheduled job.
 */
export type Actor = `key:${string}` | `user:${string}` | `review-link:${string}` | 'operator' | 'system';

export const actorOf = (auth: AuthContext): Actor => (auth.apiKeyId ? `key:${auth.apiKeyId}` : `user:${auth.accountId}`);

/** One access to record: ids only, never the person's words. */
export interface AccessRecord {
  accountId: string;
  actor: Actor;
  /** What was done, e.g. `mind.read`, `simulate`, `panel.answers`, `consent.change`, `mind.delete`. */
  action: string;
  mindId: string | null;
  /** The simulation, panel, snapshot or artifact the access was about, when there is one. */
  resourceId?: string | null;
  ip?: string | null;
}

/** A row of the access log as the account reads it. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  mindId: string | null;
  resourceId: string | null;
  ip: string | null;
}

export interface AuditQuery {
  mindId?: string;
  /** An ISO date (from its first millisecond) or date-time. */
  from?: string;
  /** An ISO date (to its last millisecond) or date-time; included. */
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO date or date-time as the log stores its times (toISOString); a date's end when `end`. 400 when it is no time. */
function instant(value: string, field: 'from' | 'to'): string {
  const t = Date.parse(DAY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(t)) throw invalid('invalid_time', `"${field}" is not an ISO date or date-time.`, { field });
  const at = DAY.test(value) && field === 'to' ? t + 86_399_999 : t;
  return new Date(at).toISOString();
}

const toEntry = (r: AccessLogRow): AuditEntry => ({ id: r.id, at: r.at, actor: r.actor, action: r.action, mindId: r.mind_id, resourceId: r.resource_id, ip: r.ip });

interface Waiting {
  rows: AccessLogRow[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The access log (issue 25, item 3): every read of a mind's content, simulation, panel answer,
 * export, consent change and deletion, appended to `access_log`, which the database keeps
 * append-only. `record` resolves only once its rows are committed, so the HTTP layer answers after
 * the row exists; requests arriving while an insert is in flight are written together by the next
 * one (group commit: one statement for many requests, each still answered after its own row).
 */
export class AccessLogService {
  private readonly store: Store;
  private readonly rt: Runtime;
  private readonly retentionDays: number;
  private waiting: Waiting[] = [];
  private draining: Promise<void> | null = null;
  /** INSERT statements run (tests and the benchmark count them). */
  inserts = 0;
  private lastMs = 0;
  private seq = 0;

  constructor(store: Store, rt: Runtime, retentionDays: number) {
    this.store = store;
    this.rt = rt;
    this.retentionDays = retentionDays;
  }

  /** Appends the records; resolves once they are committed (rejects if they could not be). */
  record(records: readonly AccessRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const now = this.rt.now();
    const at = iso(now);
    const rows = records.map((r) => ({
      id: this.timeOrderedId(now.getTime()),
      at,
      account_id: r.accountId,
      actor: r.actor,
      action: r.action,
      mind_id: r.mindId,
      resource_id: r.resourceId ?? null,
      ip: r.ip ?? null,
    }));
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /**
   * A UUIDv7 (RFC 9562) whose 12 bits after the version count the rows of the same millisecond: the
   * log's order (at, id) is then the order this process recorded them in, even within one millisecond.
   */
  private timeOrderedId(ms: number): string {
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.seq = 0;
    } else if (++this.seq > 0xfff) {
      this.lastMs++;
      this.seq = 0;
    }
    const b = this.rt.randomBytes(16);
    b.writeUIntBE(this.lastMs, 0, 6);
    b[6] = 0x70 | (this.seq >> 8);
    b[7] = this.seq & 0xff;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      const rows = batch.flatMap((w) => w.rows);
      try {
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          this.inserts++;
          await this.store.repos.accessLog.append(rows.slice(i, i + INSERT_CHUNK));
        }
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.draining = null;
  }

  /**
   * A page of the account's log, newest first. A `mindId` the account knows (one of its minds, or
   * one its log names: a deleted mind's rows outlive it) may give an empty page; any other, another
   * account's included, is 404 as everywhere in the API.
   */
  async list(auth: AuthContext, q: AuditQuery, limit: number, cursor?: string): Promise<Page<AuditEntry>> {
    const from = q.from === undefined ? undefined : instant(q.from, 'from');
    const to = q.to === undefined ? undefined : instant(q.to, 'to');
    if (from !== undefined && to !== undefined && from > to) throw invalid('invalid_range', '"from" is after "to".', { fields: ['from', 'to'] });
    const log = this.store.repos.accessLog;
    const rows = await log.page({ accountId: auth.accountId, mindId: q.mindId, from, to }, decodeCursor(cursor), limit);
    if (rows.length === 0 && q.mindId !== undefined) {
      const known = (await this.store.repos.minds.byId(auth.accountId, q.mindId)) ?? (await log.page({ accountId: auth.accountId, mindId: q.mindId }, null, 0))[0];
      if (!known) throw notFound('The mind', 'mind_not_found');
    }
    return toPage(rows, limit, toEntry, (r) => r.at);
  }

  /** Every row about one mind of the account, oldest first (the export's copy of the log). */
  async ofMind(auth: AuthContext, mindId: string): Promise<AuditEntry[]> {
    return (await this.store.repos.accessLog.ofMind(auth.accountId, mindId)).map(toEntry);
  }

  /** The mind a simulation of the account is about (none when it is not the account's). */
  async mindOfSimulation(auth: AuthContext, simulationId: string): Promise<string[]> {
    const sim = await this.store.repos.simulations.byId(auth.accountId, simulationId);
    return sim ? [sim.mindId] : [];
  }

  /** The minds a panel of the account asked (none when it is not the account's). */
  async mindsOfPanel(auth: AuthContext, panelId: string): Promise<string[]> {
    if (!(await this.store.repos.panels.byId(auth.accountId, panelId))) return [];
    return [...new Set((await this.store.repos.panels.units(panelId)).map((u) => u.mindId))];
  }

  /** Writes the retention where the database's triggers read it (every process does at start; the last one's value holds). */
  async applyRetention(): Promise<void> {
    await this.store.repos.settings.set(AUDIT_RETENTION_SETTING, String(this.retentionDays));
  }

  /**
   * Purges now, then every `everyMs` (the worker's schedule); `report` hears each outcome. Answers
   * a stop that waits for a purge in flight.
   */
  schedulePurge(everyMs: number, report: (purged: number | Error) => void): () => Promise<void> {
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = running.then(() => this.purge().then(report, (err: unknown) => report(err instanceof Error ? err : new Error(String(err)))));
    };
    run();
    const timer = setInterval(run, everyMs);
    timer.unref();
    return () => {
      clearInterval(timer);
      return running;
    };
  }

  /** Deletes the rows older than the retention; answers how many went. */
  purge(): Promise<number> {
    const before = new Date(this.rt.now().getTime() - this.retentionDays * 86_400_000 - PURGE_MARGIN_MS);
    return this.store.repos.accessLog.purgeBefore(iso(before));
  }
}
