import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { notFound } from '../kernel/errors.ts';
import type { SimulationMessage, SimulationRecord } from './conversation.ts';
import type { MindService } from './minds.ts';
import type { PendingTurns } from './pending-turns.ts';

export interface SimulationList {
  simulations: SimulationRecord[];
  /** How many simulations match the filter in all (not only this page). */
  count: number;
}

export interface SimulationDetail {
  simulation: SimulationRecord;
  /** Oldest first. */
  messages: SimulationMessage[];
}

export interface SimulationQuery {
  limit: number;
  offset: number;
  mindId?: string;
}

const simulationNotFound = () => notFound('The simulation', 'simulation_not_found');

/**
 * The simulation history of an account (`/simulations`): its conversations with their messages,
 * the turns answered and not yet stored (PendingTurns) included: each read stores those it would miss first.
 */
export class SimulationHistory {
  private readonly store: Store;
  private readonly minds: MindService;
  private readonly turns: PendingTurns;
  constructor(store: Store, minds: MindService, turns: PendingTurns) {
    this.store = store;
    this.minds = minds;
    this.turns = turns;
  }

  /** Newest first; with `mindId`, that mind's only (404 when the mind is not this account's). */
  async list(auth: AuthContext, q: SimulationQuery): Promise<SimulationList> {
    if (q.mindId) await this.minds.require(auth, q.mindId);
    const filter = q.mindId ? { mindId: q.mindId } : {};
    await this.turns.settleAccount(auth.accountId);
    const { simulations } = this.store.repos;
    const [page, count] = await Promise.all([simulations.page(auth.accountId, filter, q.limit, q.offset), simulations.count(auth.accountId, filter)]);
    return { simulations: page, count };
  }

  async get(auth: AuthContext, simulationId: string): Promise<SimulationDetail> {
    const simulation = await this.find(auth, simulationId);
    if (!simulation) throw simulationNotFound();
    return { simulation, messages: await this.store.repos.simulations.messages(simulation.id) };
  }

  /** Deletes the simulation with its messages (a queued turn's job too: it will not run). */
  async delete(auth: AuthContext, simulationId: string): Promise<{ message: 'Simulation deleted successfully'; simulationId: string }> {
    await this.turns.settleConversation(simulationId);
    const remove = () => this.store.transaction(({ repos }) => repos.simulations.delete(auth.accountId, simulationId));
    // Not found: on PostgreSQL another API process may store it yet (PendingTurns.find).
    const deleted = (await remove()) || ((await this.find(auth, simulationId)) !== undefined && (await remove()));
    if (!deleted) throw simulationNotFound();
    await this.store.scrub();
    return { message: 'Simulation deleted successfully', simulationId };
  }

  /** The conversation, stored first if its first turn is waiting here (or read again while another API process may still store it). */
  private async find(auth: AuthContext, simulationId: string) {
    await this.turns.settleConversation(simulationId);
    return this.turns.find(() => this.store.repos.simulations.byId(auth.accountId, simulationId));
  }
}
