import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** One item the retention sweep erases: its id and the mind it is about. */
export interface RetainedItem {
  id: string;
  mindId: string;
}

/**
 * What the retention sweep (domain/retention.ts) finds to erase: the accounts that keep data a
 * limited number of days, and per account the oldest snapshots, conversations, corrections and panels past
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
  snapshotsBefore(accountId: string, cutoff: string, limit: number): Promise<RetainedItem[]> {
    return this.itemsBefore('snapshots', 'created_at', accountId, cutoff, limit);
  }

  /** Conversations whose last change (their last turn) is before `cutoff`, oldest first. */
  simulationsBefore(accountId: string, cutoff: string, limit: number): Promise<RetainedItem[]> {
    return this.itemsBefore('simulations', 'updated_at', accountId, cutoff, limit);
  }

  /** Corrections written before `cutoff`, oldest first. */
  correctionsBefore(accountId: string, cutoff: string, limit: number): Promise<RetainedItem[]> {
    return this.itemsBefore('corrections', 'created_at', accountId, cutoff, limit);
  }

  /** Up to `limit` of the account's rows of `table` whose `column` is before `cutoff`, oldest first. */
  private async itemsBefore(
    table: 'snapshots' | 'simulations' | 'corrections',
    column: 'created_at' | 'updated_at',
    accountId: string,
    cutoff: string,
    limit: number,
  ): Promise<RetainedItem[]> {
    const rows = await this.db
      .selectFrom(table)
      .select(['id', 'mind_id'])
      .where('account_id', '=', accountId)
      .where(column, '<', cutoff)
      .orderBy(column)
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
