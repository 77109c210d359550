import type { Kysely, Selectable, UpdateObject } from 'kysely';
import { sql } from '../kysely.ts';
import type { Question } from '../../../engines/questions.ts';
import {
  ACTIVE_PANEL_STATES,
  PANEL_TRANSITIONS,
  type NewPanel,
  type NewUnit,
  type PanelMove,
  type PanelRecord,
  type PanelSelection,
  type PanelUnit,
  type SkippedMind,
  type UnitCounts,
} from '../../../domain/panel.ts';
import type { Database, PanelUnitsTable, PanelsTable } from '../schema.ts';

const toPanel = (r: Selectable<PanelsTable>): PanelRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  status: r.status,
  model: r.model,
  selection: JSON.parse(r.selection) as PanelSelection,
  questions: JSON.parse(r.questions) as Question[],
  skipped: JSON.parse(r.skipped) as SkippedMind[],
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

const toUnit = (r: Selectable<PanelUnitsTable>): PanelUnit => ({
  id: r.id,
  panelId: r.panel_id,
  accountId: r.account_id,
  mindId: r.mind_id,
  mindName: r.mind_name,
  seq: r.seq,
  tags: JSON.parse(r.tags) as string[],
  status: r.status,
  snapshotIds: r.snapshot_ids === null ? null : (JSON.parse(r.snapshot_ids) as string[]),
  error: r.error_message,
  finishedAt: r.finished_at,
});

/** The jobs of a panel: their payload names it. */
const panelJobs = (panelId: string) => `%"panelId":"${panelId}"%`;

/** Units inserted per statement. */
const BATCH = 200;

/** Panels and their units (their answers: panel-answers.ts); clients' reads always scoped by account, moves guarded as domain/panel.ts says. */
export class PanelsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async insert(p: NewPanel, units: readonly NewUnit[]): Promise<void> {
    await this.db
      .insertInto('panels')
      .values({
        id: p.id,
        account_id: p.accountId,
        name: p.name,
        status: p.status,
        model: p.model,
        selection: JSON.stringify(p.selection),
        questions: JSON.stringify(p.questions),
        skipped: JSON.stringify(p.skipped),
        error_code: null,
        error_message: null,
        created_at: p.createdAt,
        updated_at: p.createdAt,
        started_at: null,
        finished_at: null,
      })
      .execute();
    for (let i = 0; i < units.length; i += BATCH) {
      await this.db
        .insertInto('panel_units')
        .values(
          units.slice(i, i + BATCH).map((u) => ({
            id: u.id,
            panel_id: p.id,
            account_id: p.accountId,
            mind_id: u.mindId,
            mind_name: u.mindName,
            seq: u.seq,
            tags: JSON.stringify(u.tags),
            status: 'pending' as const,
            snapshot_ids: null,
            error_message: null,
            finished_at: null,
          })),
        )
        .execute();
    }
  }

  async byId(accountId: string, id: string): Promise<PanelRecord | undefined> {
    const r = await this.db.selectFrom('panels').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return r && toPanel(r);
  }

  /** Whatever the account: for the worker, which has only the id from its job. */
  async anyAccount(id: string): Promise<PanelRecord | undefined> {
    const r = await this.db.selectFrom('panels').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toPanel(r);
  }

  /** Newest first (then by id), `limit` from `offset`. */
  async page(accountId: string, limit: number, offset: number): Promise<PanelRecord[]> {
    const rows = await this.db
      .selectFrom('panels')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toPanel);
  }

  async count(accountId: string): Promise<number> {
    const r = await this.db.selectFrom('panels').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Per panel, how many of its units are pending, done and failed. */
  async unitCounts(panelIds: readonly string[]): Promise<Map<string, UnitCounts>> {
    const counts = new Map(panelIds.map((id): [string, UnitCounts] => [id, { pending: 0, done: 0, failed: 0 }]));
    if (panelIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('panel_units')
      .select(['panel_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('panel_id', 'in', [...panelIds])
      .groupBy(['panel_id', 'status'])
      .execute();
    for (const r of rows) {
      const c = counts.get(r.panel_id);
      if (c) c[r.status] = Number(r.n);
    }
    return counts;
  }

  async units(panelId: string): Promise<PanelUnit[]> {
    return (await this.db.selectFrom('panel_units').selectAll().where('panel_id', '=', panelId).orderBy('seq').execute()).map(toUnit);
  }

  async unit(unitId: string): Promise<PanelUnit | undefined> {
    const r = await this.db.selectFrom('panel_units').selectAll().where('id', '=', unitId).executeTakeFirst();
    return r && toUnit(r);
  }

  /** One move if the panel's state allows it; false when nothing changed. */
  async move(id: string, move: PanelMove, at: string, error?: { code: string; message: string }): Promise<boolean> {
    const { from, to } = PANEL_TRANSITIONS[move];
    const set: UpdateObject<Database, 'panels'> = { status: to, updated_at: at };
    if (move === 'start') set.started_at = sql<string>`coalesce(started_at, ${at})`;
    else set.finished_at = at;
    if (error) {
      set.error_code = error.code;
      set.error_message = error.message;
    }
    const r = await this.db.updateTable('panels').set(set).where('id', '=', id).where('status', 'in', [...from]).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Holds the panel while a unit stores its answers (in a transaction: on PostgreSQL the row stays
   * locked until commit, so two workers finishing the last units one after the other see each
   * other's). False when the panel is gone or no longer running (cancelled): store nothing then.
   */
  async holdActive(id: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('panels')
      .set({ updated_at: at })
      .where('id', '=', id)
      .where('status', 'in', [...ACTIVE_PANEL_STATES])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The unit's move out of pending (done or failed); false when it left pending already (a redelivered job). */
  async finishUnit(unitId: string, status: 'done' | 'failed', at: string, snapshotIds: readonly string[] | null, error: string | null): Promise<boolean> {
    const r = await this.db
      .updateTable('panel_units')
      .set({ status, finished_at: at, snapshot_ids: snapshotIds && JSON.stringify(snapshotIds), error_message: error })
      .where('id', '=', unitId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Ends a running panel whose units are all done or failed: completed, or failed when a unit
   * failed. Call it in the transaction that finished a unit (after `holdActive`).
   */
  async settle(id: string, at: string): Promise<void> {
    const c = (await this.unitCounts([id])).get(id);
    if (!c || c.pending > 0) return;
    if (c.failed > 0) {
      await this.move(id, 'fail', at, { code: 'panel_units_failed', message: `${c.failed} of ${c.done + c.failed} minds could not be answered; the answers of the others are kept.` });
    } else await this.move(id, 'complete', at);
  }

  /** Gives up the panel's jobs still queued (it was cancelled). */
  async dropJobs(panelId: string): Promise<void> {
    await this.db.deleteFrom('jobs').where('payload', 'like', panelJobs(panelId)).execute();
  }

  /** Deletes the panel with its units, answers and jobs; false when it is not this account's. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('panels').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    await this.db.deleteFrom('panel_answers').where('panel_id', '=', id).execute();
    await this.db.deleteFrom('panel_units').where('panel_id', '=', id).execute();
    await this.dropJobs(id);
    return true;
  }

  /**
   * Erases a mind from every panel (the mind is being deleted): its answers, its units and their
   * jobs; a running panel left with nothing pending is settled.
   */
  async deleteOfMind(mindId: string, at: string): Promise<void> {
    await this.forgetInSelections(mindId);
    const units = await this.db.selectFrom('panel_units').select(['id', 'panel_id']).where('mind_id', '=', mindId).execute();
    if (units.length === 0) return;
    await this.db.deleteFrom('panel_answers').where('mind_id', '=', mindId).execute();
    await this.db.deleteFrom('panel_units').where('mind_id', '=', mindId).execute();
    for (const u of units) {
      await this.db.deleteFrom('jobs').where('payload', 'like', `%"unitId":"${u.id}"%`).execute();
      await this.settle(u.panel_id, at);
    }
  }

  /**
   * An erased mind leaves no trace in the panels that asked for it: its id goes from their
   * selection (mindIds) and its entry (id and name) from their skipped minds.
   */
  private async forgetInSelections(mindId: string): Promise<void> {
    const naming = await this.db
      .selectFrom('panels')
      .select(['id', 'selection', 'skipped'])
      .where((eb) => eb.or([eb('selection', 'like', `%${mindId}%`), eb('skipped', 'like', `%${mindId}%`)]))
      .execute();
    for (const p of naming) {
      const { mindIds, ...selection } = JSON.parse(p.selection) as PanelSelection;
      const kept = (mindIds ?? []).filter((id) => id !== mindId);
      const skipped = (JSON.parse(p.skipped) as SkippedMind[]).filter((m) => m.mindId !== mindId);
      await this.db
        .updateTable('panels')
        .set({ selection: JSON.stringify({ ...(kept.length ? { mindIds: kept } : {}), ...selection }), skipped: JSON.stringify(skipped) })
        .where('id', '=', p.id)
        .execute();
    }
  }
}
