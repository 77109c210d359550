import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** One item the retention sweep erases: its id and the mind it is about. */
export interface RetainedItem {
  id: string;
  mindId: string;
}

/**
 * What the retention sweep (domain/retention.ts) finds to erase: the accounts that keep data a
 * limited number of days, and per account the oldest snapshots, conversations and panels past
 * that age, a batch at a time. Erasing goes through the repositories' own deletes.
 */
export class RetentionRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The accounts with a retention period, with their tier (the erasure's caller). */
  accounts(): Promise<Array<{ id: string; tier: 'standard' | 'pro'; retention_days: number }>> {
    return this.db
      .selectFrom('accounts')
      .select(['id', 'tier', 'retention_days'])
      .where('retention_days', 'is not', null)
      .orderBy('id')
      .execute() as Promise<Array<{ id: string; tier: 'standard' | 'pro'; retention_days: number }>>;
  }

  /** Snapshots (any state) received before `cutoff`, oldest first. */
  async snapshotsBefore(accountId: string, cutoff: string, limit: number): Promise<RetainedItem[]> {
    const rows = await this.db
      .selectFrom('snapshots')
      .select(['id', 'mind_id'])
      .where('account_id', '=', accountId)
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, mindId: r.mind_id }));
  }

  /** Conversations whose last change (their last turn) is before `cutoff`, oldest first. */
  async simulationsBefore(accountId: string, cutoff: string, limit: number): Promise<RetainedItem[]> {
    const rows = await this.db
      .selectFrom('simulations')
      .select(['id', 'mind_id'])
      .where('account_id', '=', accountId)
      .where('updated_at', '<', cutoff)
      .orderBy('updated_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, mindId: r.mind_id }));
  }

  /** Panels whose last change (their last answer, or their end) is before `cutoff`, oldest first, with the minds they asked. */
  async panelsBefore(accountId: string, cutoff: string, limit: number): Promise<Array<{ id: string; mindIds: string[] }>> {
    const panels = await this.db
      .selectFrom('panels')
      .select('id')
      .where('account_id', '=', accountId)
      .where('updated_at', '<', cutoff)
      .orderBy('updated_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (panels.length === 0) return [];
    const units = await this.db
      .selectFrom('panel_units')
      .select(['panel_id', 'mind_id'])
      .where('panel_id', 'in', panels.map((p) => p.id))
      .orderBy('panel_id')
      .orderBy('seq')
      .execute();
    return panels.map((p) => ({ id: p.id, mindIds: units.filter((u) => u.panel_id === p.id).map((u) => u.mind_id) }));
  }
}
