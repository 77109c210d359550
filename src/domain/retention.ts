import { DomainError } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { isUniqueViolation } from '../store/db/dialect.ts';
import type { AccessLogRow } from '../store/db/repos/access-log.ts';
import type { RetainedItem } from '../store/db/repos/retention.ts';
import type { Store, TxScope } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import type { SnapshotService } from './snapshots.ts';

/** The job kind of the retention sweep (jobs/retention-sweep.ts). */
export const RETENTION_SWEEP = 'retention-sweep';

/** The access-log actions the sweep writes, one row per item erased (actor `system`). */
export const RETENTION_ACTIONS = {
  snapshot: 'retention.erase_snapshot',
  simulation: 'retention.erase_simulation',
  panel: 'retention.erase_panel',
  correction: 'retention.erase_correction',
} as const;

export const RETENTION_ACTOR = 'system';

/** What one sweep erased. */
export interface RetentionReport {
  /** Accounts with a retention period. */
  accounts: number;
  snapshots: number;
  simulations: number;
  panels: number;
  corrections: number;
}

const DAY_MS = 24 * 3600_000;
/** Items found per query; each is erased in a transaction of its own. */
const BATCH = 100;

/**
 * Retention (issue 25, item 5): for each account with `retentionDays`, erases what is older than
 * that many days, through the erasure that exists, and says so in the access log, in the same
 * transaction as each erasure (an item is erased and logged, or neither):
 * - conversations whose last turn is older (SimulationsRepo.delete: messages and queued jobs);
 * - panels whose last change is older (PanelsRepo.delete: units and answers), one row per mind asked:
 *   a panel's answers are the person's words as a simulation's are;
 * - snapshots received earlier (SnapshotService.delete: transcript, memories, passage vectors,
 *   profile, reflections, psychometrics, the conversations citing it, its upload and blob; this
 *   process's caches drop its memory at once, other processes' on their next read).
 * - corrections written earlier (issue 32), one row each.
 * Conversations go before snapshots, so each old one gets a row of its own before a snapshot's
 * erasure takes those citing it along. The mind itself (its name and consent record) is kept.
 */
export class RetentionService {
  private readonly store: Store;
  private readonly snapshots: SnapshotService;
  private readonly rt: Runtime;
  constructor(store: Store, snapshots: SnapshotService, rt: Runtime) {
    this.store = store;
    this.snapshots = snapshots;
    this.rt = rt;
  }

  /** Queues the next sweep `delayMs` from now, unless one is queued already (false then). */
  async schedule(delayMs: number): Promise<boolean> {
    try {
      await this.store.queue.enqueue(RETENTION_SWEEP, {}, { delayMs });
      return true;
    } catch (err) {
      // 013_retention: one queued sweep at a time, whatever number of workers schedule one.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async sweep(): Promise<RetentionReport> {
    const report: RetentionReport = { accounts: 0, snapshots: 0, simulations: 0, panels: 0, corrections: 0 };
    for (const account of await this.store.repos.retention.accounts()) {
      report.accounts++;
      const cutoff = iso(new Date(this.rt.now().getTime() - account.retention_days * DAY_MS));
      const auth: AuthContext = { accountId: account.id, tier: account.tier, apiKeyId: null };
      const before = report.simulations + report.panels + report.snapshots + report.corrections;
      try {
        report.simulations += await this.eraseAll((limit) => this.store.repos.retention.simulationsBefore(auth.accountId, cutoff, limit), (item) => this.eraseSimulation(auth, item));
        report.panels += await this.eraseAll((limit) => this.store.repos.retention.panelsBefore(auth.accountId, cutoff, limit), (panel) => this.erasePanel(auth, panel));
        report.snapshots += await this.eraseAll((limit) => this.store.repos.retention.snapshotsBefore(auth.accountId, cutoff, limit), (item) => this.eraseSnapshot(auth, item));
        report.corrections += await this.eraseAll((limit) => this.store.repos.retention.correctionsBefore(auth.accountId, cutoff, limit), (item) => this.eraseCorrection(auth, item));
      } finally {
        // Once per account, not per item: what was erased leaves the database's files (Store.scrub).
        if (report.simulations + report.panels + report.snapshots + report.corrections > before) await this.store.scrub();
      }
    }
    return report;
  }

  /** Erases batch after batch until none is left; an item not erased (gone meanwhile) is not tried twice. */
  private async eraseAll<T extends { id: string }>(find: (limit: number) => Promise<T[]>, erase: (item: T) => Promise<boolean>): Promise<number> {
    const tried = new Set<string>();
    let erased = 0;
    for (;;) {
      const batch = (await find(BATCH + tried.size)).filter((i) => !tried.has(i.id));
      if (batch.length === 0) return erased;
      for (const item of batch) {
        tried.add(item.id);
        if (await erase(item)) erased++;
      }
    }
  }

  private row(auth: AuthContext, action: string, mindId: string | null, resourceId: string): AccessLogRow {
    return { id: this.rt.newId(), at: iso(this.rt.now()), account_id: auth.accountId, actor: RETENTION_ACTOR, action, mind_id: mindId, resource_id: resourceId, ip: null };
  }

  private eraseSimulation(auth: AuthContext, item: RetainedItem): Promise<boolean> {
    return this.store.transaction(async ({ repos }) => {
      if (!(await repos.simulations.delete(auth.accountId, item.id))) return false;
      await repos.accessLog.append([this.row(auth, RETENTION_ACTIONS.simulation, item.mindId, item.id)]);
      return true;
    });
  }

  private erasePanel(auth: AuthContext, panel: { id: string; mindIds: string[] }): Promise<boolean> {
    return this.store.transaction(async ({ repos }) => {
      if (!(await repos.panels.delete(auth.accountId, panel.id))) return false;
      const minds = panel.mindIds.length > 0 ? panel.mindIds : [null];
      await repos.accessLog.append(minds.map((mindId) => this.row(auth, RETENTION_ACTIONS.panel, mindId, panel.id)));
      return true;
    });
  }

  private eraseCorrection(auth: AuthContext, item: RetainedItem): Promise<boolean> {
    return this.store.transaction(async ({ repos }) => {
      if (!(await repos.corrections.deleteById(auth.accountId, item.id))) return false;
      await repos.accessLog.append([this.row(auth, RETENTION_ACTIONS.correction, item.mindId, item.id)]);
      return true;
    });
  }

  private async eraseSnapshot(auth: AuthContext, item: RetainedItem): Promise<boolean> {
    let erased = false;
    try {
      const inTransaction = async (tx: TxScope) => {
        await tx.repos.accessLog.append([this.row(auth, RETENTION_ACTIONS.snapshot, item.mindId, item.id)]);
        erased = true;
      };
      await this.snapshots.delete(auth, item.mindId, item.id, { inTransaction, scrub: false });
    } catch (err) {
      // Deleted meanwhile (with its mind, or by a client): nothing left to erase.
      if (!(err instanceof DomainError) || (err.kind !== 'not_found' && err.kind !== 'gone')) throw err;
    }
    return erased;
  }
}
