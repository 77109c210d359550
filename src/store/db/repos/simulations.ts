import type { Kysely, Selectable, UpdateObject } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { sql } from '../kysely.ts';
import {
  SIMULATION_TRANSITIONS,
  type AnsweredTurn,
  type MessageContent,
  type NewMessage,
  type NewSimulation,
  type SimulationMessage,
  type SimulationMove,
  type SimulationRecord,
} from '../../../domain/conversation.ts';
import type { Database, SimulationMessagesTable, SimulationsTable } from '../schema.ts';

type SimulationRow = Selectable<SimulationsTable>;
type MessageRow = Selectable<SimulationMessagesTable>;

const toSimulation = (r: SimulationRow): SimulationRecord => ({
  id: r.id,
  accountId: r.account_id,
  mindId: r.mind_id,
  digitalTwinId: r.digital_twin_id,
  mindAssessmentId: r.mind_assessment_id,
  title: r.title,
  model: r.model,
  status: r.status,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  messageCount: r.message_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toMessage = (r: MessageRow): SimulationMessage => ({
  id: r.id,
  role: r.role,
  content: JSON.parse(r.content) as MessageContent,
  createdAt: r.created_at,
});

/** What a move may change besides the status (and the messages it adds). */
export interface SimulationPatch {
  model?: string;
  mindAssessmentId?: string | null;
  error?: { code: string; message: string } | null;
  at: string;
}

/** Rows per insert (and ids per `in` list): within SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 500;

const simulationRow = (s: NewSimulation) => ({
  id: s.id,
  account_id: s.accountId,
  mind_id: s.mindId,
  digital_twin_id: s.digitalTwinId,
  mind_assessment_id: s.mindAssessmentId,
  title: s.title,
  model: s.model,
  status: s.status,
  error_code: null,
  error_message: null,
  created_at: s.createdAt,
  updated_at: s.createdAt,
});

/** The messages' rows, numbered after the conversation's `after` first ones. */
const messageRows = (s: { id: string; accountId: string; mindId: string }, after: number, messages: readonly NewMessage[]) =>
  messages.map((m, i) => ({
    id: m.id,
    simulation_id: s.id,
    account_id: s.accountId,
    mind_id: s.mindId,
    seq: after + i + 1,
    role: m.role,
    content: JSON.stringify(m.content),
    created_at: m.createdAt,
  }));

/** Simulations and their messages, always scoped by account for clients; moves guarded as domain/conversation.ts says. */
export class SimulationsRepo {
  private readonly db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** A new simulation with its first messages (numbered from 1). */
  async insert(s: NewSimulation, messages: readonly NewMessage[]): Promise<void> {
    await this.db
      .insertInto('simulations')
      .values({ ...simulationRow(s), message_count: messages.length })
      .execute();
    await this.insertMessages(s, 0, messages);
  }

  /**
   * Stores answered first turns (new conversations) in one go: call it in a transaction. A turn
   * already stored is left as it is (its id is taken: a journal replayed twice adds nothing), and a
   * turn citing a snapshot that no longer exists is dropped (its mind or snapshot was deleted after
   * the answer, which erases the conversations citing it). SQLite runs one write transaction at a
   * time, so a deletion is wholly before or after this one. On PostgreSQL the minds, then the cited
   * snapshots, are read FOR KEY SHARE (which only a deletion waits for, not an update): a deletion
   * (which locks its mind or snapshot row first) waits for this transaction and then deletes what it
   * stored, or has committed first and the turn is dropped here. Answers how many turns were stored
   * now and the ids of those dropped.
   */
  async insertAnswered(turns: readonly AnsweredTurn[]): Promise<{ stored: number; dropped: string[] }> {
    const postgres = dialectOf(this.db) === 'postgres';
    // Minds before snapshots, the order a mind's deletion locks them in.
    const minds = postgres ? await this.existing('minds', turns.map((t) => t.simulation.mindId), true) : null;
    const snapshots = await this.existing('snapshots', turns.flatMap((t) => t.citedSnapshotIds), postgres);
    const kept = turns.filter((t) => t.citedSnapshotIds.every((id) => snapshots.has(id)) && (!minds || minds.has(t.simulation.mindId)));
    const dropped = turns.filter((t) => !kept.includes(t)).map((t) => t.simulation.id);
    let stored = 0;
    for (let i = 0; i < kept.length; i += CHUNK) {
      const chunk = kept.slice(i, i + CHUNK);
      const inserted = await this.db
        .insertInto('simulations')
        .values(chunk.map(({ simulation: s, messages }) => ({ ...simulationRow(s), message_count: messages.length })))
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      const fresh = new Set(inserted.map((r) => r.id));
      const rows = chunk.filter((t) => fresh.has(t.simulation.id)).flatMap((t) => messageRows(t.simulation, 0, t.messages));
      for (let j = 0; j < rows.length; j += CHUNK) await this.db.insertInto('simulation_messages').values(rows.slice(j, j + CHUNK)).execute();
      stored += fresh.size;
    }
    return { stored, dropped };
  }

  /** Which of these ids are rows of the table (with `lock`, kept from deletion until the transaction ends: PostgreSQL). */
  private async existing(table: 'snapshots' | 'minds', ids: readonly string[], lock: boolean): Promise<Set<string>> {
    const distinct = [...new Set(ids)];
    const found = new Set<string>();
    for (let i = 0; i < distinct.length; i += CHUNK) {
      const q = this.db.selectFrom(table).select('id').where('id', 'in', distinct.slice(i, i + CHUNK));
      for (const r of await (lock ? q.forKeyShare() : q).execute()) found.add(r.id);
    }
    return found;
  }

  /**
   * One move, if the simulation's state allows it, adding `messages` after its last one (call it
   * in a transaction: the count and the messages go together). False when nothing changed: the
   * simulation is gone, or in a state the move does not start from.
   */
  async move(id: string, move: SimulationMove, patch: SimulationPatch, messages: readonly NewMessage[] = []): Promise<boolean> {
    const { from, to } = SIMULATION_TRANSITIONS[move];
    const set: UpdateObject<Database, 'simulations'> = {
      status: to,
      updated_at: patch.at,
      message_count: sql<number>`message_count + ${messages.length}`,
    };
    if (patch.model !== undefined) set.model = patch.model;
    if (patch.mindAssessmentId !== undefined) set.mind_assessment_id = patch.mindAssessmentId;
    if (patch.error !== undefined) {
      set.error_code = patch.error?.code ?? null;
      set.error_message = patch.error?.message ?? null;
    }
    const row = await this.db
      .updateTable('simulations')
      .set(set)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .returning(['account_id', 'mind_id', 'message_count'])
      .executeTakeFirst();
    if (!row) return false;
    await this.insertMessages({ id, accountId: row.account_id, mindId: row.mind_id }, row.message_count - messages.length, messages);
    return true;
  }

  private async insertMessages(s: { id: string; accountId: string; mindId: string }, after: number, messages: readonly NewMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db.insertInto('simulation_messages').values(messageRows(s, after, messages)).execute();
  }

  async byId(accountId: string, id: string): Promise<SimulationRecord | undefined> {
    const r = await this.db.selectFrom('simulations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return r && toSimulation(r);
  }

  /** Whatever the account: for the worker, which has only the id from its job. */
  async anyAccount(id: string): Promise<SimulationRecord | undefined> {
    const r = await this.db.selectFrom('simulations').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toSimulation(r);
  }

  /** Newest first (then by id), `limit` from `offset`, optionally of one mind. */
  async page(accountId: string, filter: { mindId?: string }, limit: number, offset: number): Promise<SimulationRecord[]> {
    let q = this.db.selectFrom('simulations').selectAll().where('account_id', '=', accountId);
    if (filter.mindId) q = q.where('mind_id', '=', filter.mindId);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return rows.map(toSimulation);
  }

  async count(accountId: string, filter: { mindId?: string }): Promise<number> {
    let q = this.db.selectFrom('simulations').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId);
    if (filter.mindId) q = q.where('mind_id', '=', filter.mindId);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }

  /** The simulation's messages, oldest first. */
  async messages(simulationId: string): Promise<SimulationMessage[]> {
    const rows = await this.db.selectFrom('simulation_messages').selectAll().where('simulation_id', '=', simulationId).orderBy('seq').execute();
    return rows.map(toMessage);
  }

  /** Deletes the simulation, its messages and its queued job; false when it is not this account's. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('simulations').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) return false;
    await this.db.deleteFrom('simulation_messages').where('simulation_id', '=', id).execute();
    await this.db.deleteFrom('jobs').where('payload', 'like', `%"simulationId":"${id}"%`).execute();
    return true;
  }

  /** Every simulation of a mind, with their messages and jobs (the mind is being deleted). */
  async deleteOfMind(mindId: string): Promise<void> {
    const ids = (await this.db.selectFrom('simulations').select('id').where('mind_id', '=', mindId).execute()).map((r) => r.id);
    await this.deleteMany(ids);
  }

  /**
   * Deletes the conversations of the mind that drew on a snapshot (its id as the latest snapshot
   * used, or in an answer's evidence): their answers quote its words, which go with it.
   */
  async deleteCiting(mindId: string, snapshotId: string): Promise<void> {
    const citing = this.db.selectFrom('simulation_messages').select('simulation_id').where('mind_id', '=', mindId).where('content', 'like', `%${snapshotId}%`);
    const ids = (
      await this.db
        .selectFrom('simulations')
        .select('id')
        .where('mind_id', '=', mindId)
        .where((eb) => eb.or([eb('mind_assessment_id', '=', snapshotId), eb('id', 'in', citing)]))
        .execute()
    ).map((r) => r.id);
    await this.deleteMany(ids);
  }

  private async deleteMany(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      await this.db
        .deleteFrom('jobs')
        .where((eb) => eb.or(batch.map((sid) => eb('payload', 'like', `%"simulationId":"${sid}"%`))))
        .execute();
      await this.db.deleteFrom('simulation_messages').where('simulation_id', 'in', batch).execute();
      await this.db.deleteFrom('simulations').where('id', 'in', batch).execute();
    }
  }
}
