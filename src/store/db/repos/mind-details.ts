import type { Kysely, Selectable } from 'kysely';
import type { Database, SnapshotsTable } from '../schema.ts';
import type { DigitalTwinRow } from './minds.ts';

/** What a mind assessment (snapshot) shows inside its digital twin. */
export type AssessmentRow = Pick<
  Selectable<SnapshotsTable>,
  'id' | 'mind_id' | 'artifact_id' | 'digital_twin_id' | 'status' | 'created_at' | 'started_at' | 'completed_at'
>;

/**
 * What the Mind object nests, read for a page of minds at once (a query per kind, never one per
 * mind): their digital twins, the twins' snapshots, and the word tokens of their completed snapshots.
 */
export class MindDetailsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The twins of these minds (of the account), each mind's oldest (its default) first. */
  twins(accountId: string, mindIds: readonly string[]): Promise<DigitalTwinRow[]> {
    if (mindIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('digital_twins')
      .selectAll()
      .where('mind_id', 'in', [...mindIds])
      .where('account_id', '=', accountId)
      .orderBy('mind_id')
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The snapshots of these minds linked to a twin (snapshots.digital_twin_id), newest first (by mind: the index). */
  assessments(accountId: string, mindIds: readonly string[]): Promise<AssessmentRow[]> {
    if (mindIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('snapshots')
      .select(['id', 'mind_id', 'artifact_id', 'digital_twin_id', 'status', 'created_at', 'started_at', 'completed_at'])
      .where('mind_id', 'in', [...mindIds])
      .where('account_id', '=', accountId)
      .where('digital_twin_id', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Per mind with a completed snapshot: the sum of its completed snapshots' token counts, and how
   * many of them have one (snapshots completed before counts were kept, without a profile, have none).
   */
  async tokenCounts(accountId: string, mindIds: readonly string[]): Promise<Map<string, { tokens: number; counted: number }>> {
    if (mindIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('snapshots')
      .select((eb) => ['mind_id', eb.fn.sum<number | null>('token_count').as('tokens'), eb.fn.count<number>('token_count').as('counted')])
      .where('mind_id', 'in', [...mindIds])
      .where('account_id', '=', accountId)
      .where('status', '=', 'completed')
      .groupBy('mind_id')
      .execute();
    return new Map(rows.map((r) => [r.mind_id, { tokens: Number(r.tokens ?? 0), counted: Number(r.counted) }]));
  }
}
