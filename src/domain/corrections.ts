import type { Store } from '../store/store.ts';
import { actorOf } from './access-log.ts';
import type { AuthContext } from './accounts.ts';
import { ConsentPolicy } from './consent.ts';
import { MAX_CORRECTION_NOTE, MAX_CORRECTION_TEXT, type Correction } from './correction.ts';
import type { MindService } from './minds.ts';
import type { RedactionService } from './redaction.ts';
import type { SimulationHistory } from './simulations.ts';
import { invalid, notFound } from '../kernel/errors.ts';
import { decodeCursor, toPage, type Page } from '../kernel/pagination.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';

export interface NewCorrection {
  scenario: string;
  answer: string;
  simulationId?: string | null | undefined;
  note?: string | null | undefined;
}

export interface CorrectionList extends Page<Correction> {
  /** How many corrections the mind has in all. */
  count: number;
}

const correctionNotFound = () => notFound('The correction', 'correction_not_found');

/** Trimmed text within its limits, else 400 naming the field (the REST schemas check the same first). */
function text(field: string, raw: string, max: number): string {
  const t = raw.trim();
  if (t.length === 0 || t.length > max) {
    throw invalid('invalid_correction', `${field} must have 1 to ${max.toLocaleString('en')} characters.`, { field, limit: max });
  }
  return t;
}

/**
 * A mind's corrections (issue 32): created (from a scenario, or from a simulation's latest turn),
 * listed, read and deleted, always within the account (another account's ids are 404). Writing one
 * is a use of the mind like a simulation: an account that requires consent refuses it when the
 * mind's consent does not cover `simulate` (what a correction is for). With the mind's redaction
 * `stored`, the texts are redacted before they are written. The access log's rows are written by
 * the HTTP audit trail (http/audit-routes.ts) and the MCP backend, as for every other route.
 */
export class CorrectionService {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly simulations: SimulationHistory;
  private readonly rt: Runtime;
  private readonly consent: ConsentPolicy;
  private redaction: RedactionService | null = null;
  private readonly changedListeners: Array<(mindId: string) => void> = [];
  constructor(store: Store, minds: MindService, simulations: SimulationHistory, rt: Runtime) {
    this.store = store;
    this.minds = minds;
    this.simulations = simulations;
    this.rt = rt;
    this.consent = new ConsentPolicy(store.repos, rt);
  }

  /** Redacts what a mind with `stored` redaction saves. */
  redacting(redaction: RedactionService): this {
    this.redaction = redaction;
    return this;
  }

  /** Told when a mind's corrections change (the engines' cache of correction vectors). */
  onChanged(fn: (mindId: string) => void): void {
    this.changedListeners.push(fn);
  }

  async create(auth: AuthContext, mindId: string, input: NewCorrection, createdBy: string = actorOf(auth)): Promise<Correction> {
    const mind = await this.minds.require(auth, mindId);
    let scenario = text('scenario', input.scenario, MAX_CORRECTION_TEXT);
    let answer = text('answer', input.answer, MAX_CORRECTION_TEXT);
    let note = input.note == null || input.note.trim() === '' ? null : text('note', input.note, MAX_CORRECTION_NOTE);
    if (input.simulationId) {
      const sim = await this.store.repos.simulations.byId(auth.accountId, input.simulationId);
      if (!sim || sim.mindId !== mindId) throw notFound('The simulation', 'simulation_not_found');
    }
    await this.consent.check(auth.accountId, mind, ['simulate']);
    const redactor = mind.redaction === 'stored' ? this.redaction?.forMind(mind) : undefined;
    if (redactor) {
      const { texts } = await redactor.redact(note === null ? [scenario, answer] : [scenario, answer, note]);
      [scenario = scenario, answer = answer] = texts;
      if (note !== null) note = texts[2] ?? note;
    }
    const correction: Correction = {
      id: this.rt.newId(),
      mindId,
      scenario,
      answer,
      simulationId: input.simulationId ?? null,
      note,
      createdAt: iso(this.rt.now()),
      createdBy,
    };
    await this.store.transaction(async ({ repos }) => {
      // The mind may have been deleted meanwhile: no correction outlives it.
      if (!(await repos.minds.byId(auth.accountId, mindId))) throw notFound('The mind', 'mind_not_found');
      await repos.corrections.insert({ ...correction, accountId: auth.accountId });
    });
    this.changed(mindId);
    return correction;
  }

  /** A correction of the simulation's latest turn: its scenario is the latest message to the person. */
  async fromSimulation(auth: AuthContext, simulationId: string, input: { answer: string; note?: string | null | undefined }, createdBy?: string): Promise<Correction> {
    const { simulation, messages } = await this.simulations.get(auth, simulationId);
    const asked = [...messages].reverse().find((m) => m.role === 'user');
    if (!asked) throw invalid('simulation_has_no_turn', 'This simulation has no message to the person to correct.', { simulationId });
    return this.create(auth, simulation.mindId, { scenario: asked.content.text, answer: input.answer, note: input.note, simulationId }, createdBy);
  }

  async list(auth: AuthContext, mindId: string, limit: number, cursor?: string): Promise<CorrectionList> {
    await this.minds.require(auth, mindId);
    const { corrections } = this.store.repos;
    const [rows, count] = await Promise.all([corrections.page(auth.accountId, mindId, decodeCursor(cursor), limit), corrections.countOf(auth.accountId, mindId)]);
    return { ...toPage(rows, limit, (c) => c, (c) => c.createdAt), count };
  }

  async get(auth: AuthContext, mindId: string, correctionId: string): Promise<Correction> {
    await this.minds.require(auth, mindId);
    const found = await this.store.repos.corrections.byId(auth.accountId, mindId, correctionId);
    if (!found) throw correctionNotFound();
    return found;
  }

  /** Removes the correction; the mind answers from its transcript again (and the database's files are scrubbed of it). */
  async delete(auth: AuthContext, mindId: string, correctionId: string): Promise<{ message: 'Correction deleted successfully'; correctionId: string }> {
    await this.minds.require(auth, mindId);
    const deleted = await this.store.transaction(({ repos }) => repos.corrections.delete(auth.accountId, mindId, correctionId));
    if (!deleted) throw correctionNotFound();
    this.changed(mindId);
    await this.store.scrub();
    return { message: 'Correction deleted successfully', correctionId };
  }

  /** Every correction of the mind, oldest first, for answering (no tenancy check: the caller has the mind). */
  ofMind(mindId: string): Promise<Correction[]> {
    return this.store.repos.corrections.ofMind(mindId);
  }

  private changed(mindId: string): void {
    for (const fn of this.changedListeners) fn(mindId);
  }
}
