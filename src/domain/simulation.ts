import { addCounts, type RedactionCounts } from '../privacy/kinds.ts';
import type { RedactionService } from './redaction.ts';
import { LRUCache } from 'lru-cache';
import type { EngineRegistry, ModelInfo, ResolvedModel } from '../engines/registry.ts';
import type { ConversationTurn, EvidenceItem, PartListener, SimulationAnalysis, SimulationResult } from '../engines/types.ts';
import type { MindRow } from '../store/db/repos/minds.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { DomainError, conflict, invalid, notFound } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { isBusy, recentHistory, titleOf, type AnsweredTurn, type NewMessage, type SimulationRecord } from './conversation.ts';
import { ConsentPolicy, simulationUses, usesLanguageModel } from './consent.ts';
import type { MindService } from './minds.ts';
import type { MindMemories } from './mind-memory.ts';
import { resolveModel } from './models.ts';
import type { PendingTurns } from './pending-turns.ts';
import { answeringSnapshotIds } from './snapshots.ts';

/** The job that answers a background turn (runInBackground). */
export const RUN_SIMULATION = 'run-simulation';

export interface SimulateRequest {
  mindId: string;
  selectedSimulationModel?: string;
  scenario: { message: string };
  /** Continue this conversation (a simulation of the same mind); a new one is started without it. */
  conversationId?: string;
  /** Simulate this twin: only the completed snapshots linked to it (default: every linked completed snapshot of the mind). */
  digitalTwinId?: string;
}

export interface SimulateResponse {
  message: string;
  model: string;
  snapshotIds: string[];
  analysis: SimulationAnalysis;
  confidence: number;
  evidence: EvidenceItem[];
  /** With the mind's redaction on: what was replaced in what the LLM provider was sent, or the placeholders quoted (offline engine). */
  redactions?: RedactionCounts;
  /** The stored conversation this turn belongs to; `conversationId` is the same id. */
  simulationId: string;
  conversationId: string;
}

export interface QueuedSimulation {
  simulationId: string;
  conversationId: string;
  status: 'queued';
  message: 'Simulation queued';
}

/** A turn checked and ready to run: everything a request could be refused for is known by now. */
export interface PreparedTurn {
  auth: AuthContext;
  accountId: string;
  mind: MindRow;
  resolved: ResolvedModel;
  snapshotIds: string[];
  message: string;
  /** The conversation continued, or null for a new one (whose id is `simulationId`). */
  conversation: SimulationRecord | null;
  simulationId: string;
  history: ConversationTurn[];
  /** The twin asked for, or null for every linked snapshot of the mind. */
  digitalTwinId: string | null;
  askedAt: string;
}

const conversationNotFound = () => notFound('The conversation', 'conversation_not_found');
const inProgress = (id: string) =>
  conflict('simulation_in_progress', 'A background turn of this conversation is still queued or running: wait until its status is completed or failed.', {
    simulationId: id,
  });

/** Minds whose default twin this process remembers (the twin made with the mind, which never changes). */
const DEFAULT_TWINS_KEPT = 10_000;

/**
 * Runs scenarios against a mind's memory (its completed snapshots linked to a twin, to the one asked for if any) and keeps every turn
 * as a conversation (domain/conversation.ts): answered in the request, streamed part by part,
 * or queued for a worker (RUN_SIMULATION). A new conversation's first turn is stored after its
 * answer (PendingTurns: journaled first, so a crash loses nothing); a follow-up, before it.
 */
export class SimulationService {
  private readonly simulatedListeners: Array<(auth: AuthContext, digitalTwinId: string) => void> = [];
  private readonly enqueuedListeners: Array<() => void> = [];

  private readonly store: Store;
  private readonly minds: MindService;
  private readonly engines: EngineRegistry;
  private readonly strictModels: boolean;
  private readonly memories: MindMemories;
  private readonly rt: Runtime;
  private readonly turns: PendingTurns;
  /** Refuses a mind whose consent does not cover the use, when the account requires consent. */
  private readonly consent: ConsentPolicy;
  /**
   * mind id → its default twin's id, for the usage meter: the twin made with the mind is its default
   * for as long as it lives (twins added or renamed later never are), so an entry needs no
   * invalidation but the mind's deletion; looked up once per mind and process.
   */
  private readonly defaultTwins = new LRUCache<string, string>({ max: DEFAULT_TWINS_KEPT });
  private redaction: RedactionService | null = null;
  constructor(
    store: Store,
    minds: MindService,
    engines: EngineRegistry,
    strictModels: boolean,
    memories: MindMemories,
    rt: Runtime,
    turns: PendingTurns,
  ) {
    this.store = store;
    this.minds = minds;
    this.engines = engines;
    this.strictModels = strictModels;
    this.memories = memories;
    this.rt = rt;
    this.turns = turns;
    this.consent = new ConsentPolicy(store.repos, rt);
    minds.onDeleted(({ mindId }) => this.defaultTwins.delete(mindId));
  }

  /** Every prompt of a mind whose redaction is on goes through its redaction (composition root). */
  redacting(redaction: RedactionService): this {
    this.redaction = redaction;
    return this;
  }

  /** Calls `fn` after each simulation with the caller and the twin simulated (the usage meter counts them). */
  onSimulated(fn: (auth: AuthContext, digitalTwinId: string) => void): void {
    this.simulatedListeners.push(fn);
  }

  /** The simulation models, and whether each can run here. */
  models(): ModelInfo[] {
    return this.engines.list();
  }

  /** Calls `fn` after a background turn and its job are committed (the composition root wakes this process's worker). */
  onEnqueued(fn: () => void): void {
    this.enqueuedListeners.push(fn);
  }

  /** Answers a scenario now (and stores the turn); `onPart` hears the answer's pieces as they are ready. */
  async simulate(auth: AuthContext, req: SimulateRequest, onPart?: PartListener): Promise<SimulateResponse> {
    return this.answer(await this.prepare(auth, req), onPart);
  }

  /** Every check of a turn, before anything is run or stored: the model, the mind, the conversation, a completed snapshot. */
  async prepare(auth: AuthContext, req: SimulateRequest): Promise<PreparedTurn> {
    const resolved = this.resolve(req.selectedSimulationModel);
    const mind = await this.minds.require(auth, req.mindId);
    await this.consent.check(auth.accountId, mind, simulationUses(usesLanguageModel(resolved.model)));
    let conversation: SimulationRecord | null = null;
    let history: ConversationTurn[] = [];
    if (req.conversationId) {
      const id = req.conversationId;
      // Its first turn may be answered and not stored yet (here, or on another API process).
      await this.turns.settleConversation(id);
      conversation = (await this.turns.find(() => this.store.repos.simulations.byId(auth.accountId, id))) ?? null;
      if (!conversation) throw conversationNotFound();
      if (conversation.mindId !== mind.id) {
        throw invalid('conversation_mind_mismatch', 'This conversation is with another mind: send its mindId, or leave conversationId out to start a new one.', {
          field: 'conversationId',
          mindId: conversation.mindId,
        });
      }
      if (isBusy(conversation.status)) throw inProgress(conversation.id);
      history = recentHistory(await this.store.repos.simulations.messages(conversation.id));
    }
    const twinId = req.digitalTwinId ?? conversation?.digitalTwinId ?? undefined;
    // The conversation's own twin was checked when it began (a twin goes only with its mind, and its conversations with it).
    const known = twinId !== undefined && twinId === conversation?.digitalTwinId;
    if (twinId !== undefined && !known && !(await this.store.repos.twins.byId(auth.accountId, mind.id, twinId))) {
      throw notFound('The digital twin', 'digital_twin_not_found');
    }
    const snapshotIds = await this.completedSnapshots(mind.id, twinId);
    return {
      auth,
      accountId: auth.accountId,
      mind,
      resolved,
      snapshotIds,
      message: req.scenario.message,
      conversation,
      simulationId: conversation?.id ?? this.rt.newId(),
      history,
      digitalTwinId: twinId ?? null,
      askedAt: iso(this.rt.now()),
    };
  }

  /**
   * Runs a prepared turn and stores it with its answer: a new conversation's first turn is kept
   * by PendingTurns (journaled now, in the database within SIMULATION_FLUSH_MS) when it defers,
   * else stored now; the next turn of a conversation is stored now.
   */
  async answer(turn: PreparedTurn, onPart?: PartListener): Promise<SimulateResponse> {
    const result = await this.run(turn.mind, turn.resolved, turn.snapshotIds, turn.message, turn.history, onPart);
    const at = iso(this.rt.now());
    const messages: NewMessage[] = [
      { id: this.rt.newId(), role: 'user', content: { text: turn.message }, createdAt: turn.askedAt },
      this.assistantMessage(result, at),
    ];
    const latest = turn.snapshotIds.at(-1) ?? null;
    const { simulations } = this.store.repos;
    if (!turn.conversation) {
      const answered: AnsweredTurn = {
        simulation: {
          id: turn.simulationId,
          accountId: turn.accountId,
          mindId: turn.mind.id,
          digitalTwinId: turn.digitalTwinId,
          mindAssessmentId: latest,
          title: titleOf(turn.message),
          model: turn.resolved.model,
          status: 'completed',
          createdAt: turn.askedAt,
        },
        messages,
        citedSnapshotIds: [...new Set([...(latest ? [latest] : []), ...result.evidence.flatMap((e) => (e.snapshotId ? [e.snapshotId] : []))])],
      };
      if (!this.turns.add(answered)) {
        await this.store.transaction(({ repos }) => repos.simulations.insert(answered.simulation, messages));
      }
    } else {
      const patch = { model: turn.resolved.model, mindAssessmentId: latest, error: null, at };
      const stored = await this.store.transaction(({ repos }) => repos.simulations.move(turn.simulationId, 'answer', patch, messages));
      if (!stored) {
        // A background turn was queued meanwhile, or the conversation was deleted.
        if (await simulations.byId(turn.accountId, turn.simulationId)) throw inProgress(turn.simulationId);
        throw conversationNotFound();
      }
    }
    await this.simulated(turn);
    const ids = { simulationId: turn.simulationId, conversationId: turn.simulationId };
    const redactions = result.redactions ? { redactions: result.redactions } : {};
    return { message: result.message, model: turn.resolved.model, snapshotIds: turn.snapshotIds, analysis: result.analysis, confidence: result.confidence, evidence: result.evidence, ...redactions, ...ids };
  }

  /** Stores the turn as queued and enqueues its job in the same transaction; a worker answers it (runQueued). */
  async enqueue(auth: AuthContext, req: SimulateRequest): Promise<QueuedSimulation> {
    const turn = await this.prepare(auth, req);
    const user: NewMessage = { id: this.rt.newId(), role: 'user', content: { text: turn.message }, createdAt: turn.askedAt };
    await this.store.transaction(async ({ repos, queue }) => {
      if (!turn.conversation) {
        await repos.simulations.insert(
          {
            id: turn.simulationId,
            accountId: turn.accountId,
            mindId: turn.mind.id,
            digitalTwinId: turn.digitalTwinId,
            mindAssessmentId: null,
            title: titleOf(turn.message),
            model: turn.resolved.model,
            status: 'queued',
            createdAt: turn.askedAt,
          },
          [user],
        );
      } else if (!(await repos.simulations.move(turn.simulationId, 'queue', { model: turn.resolved.model, error: null, at: turn.askedAt }, [user]))) {
        throw inProgress(turn.simulationId);
      }
      // One account's background simulations take turns with other accounts' jobs.
      await queue.enqueue(RUN_SIMULATION, { simulationId: turn.simulationId }, { group: turn.accountId });
    });
    for (const fn of this.enqueuedListeners) fn();
    await this.simulated(turn);
    return { simulationId: turn.simulationId, conversationId: turn.simulationId, status: 'queued', message: 'Simulation queued' };
  }

  /**
   * The job of a background turn: queued → running → completed (with the answer) | failed (with
   * why). Idempotent: a simulation already final, or deleted, is left alone. An error of the
   * request's own (the model failed, no snapshot any more) fails the turn at once; anything else
   * is thrown for the queue to retry.
   */
  async runQueued(simulationId: string): Promise<void> {
    const { simulations, minds } = this.store.repos;
    const sim = await simulations.anyAccount(simulationId);
    if (!sim || !(await simulations.move(sim.id, 'start', { at: iso(this.rt.now()) }))) return;
    const messages = await simulations.messages(sim.id);
    const asked = messages.at(-1);
    const mind = await minds.byId(sim.accountId, sim.mindId);
    if (!mind) return; // deleted meanwhile, with its simulations
    if (asked?.role !== 'user') return this.failQueued(sim.id, 'nothing_to_answer', 'The conversation has no message waiting for an answer.');
    let result: SimulationResult;
    let resolved: ResolvedModel;
    let snapshotIds: string[];
    try {
      resolved = this.resolve(sim.model);
      // Checked again when the turn runs: the consent may have expired, or the setting changed, since it was queued.
      await this.consent.check(sim.accountId, mind, simulationUses(usesLanguageModel(resolved.model)));
      snapshotIds = await this.completedSnapshots(mind.id, sim.digitalTwinId ?? undefined);
      result = await this.run(mind, resolved, snapshotIds, asked.content.text, recentHistory(messages.slice(0, -1)));
    } catch (err) {
      if (err instanceof DomainError) return this.failQueued(sim.id, err.code, err.message);
      throw err;
    }
    const at = iso(this.rt.now());
    const patch = { model: resolved.model, mindAssessmentId: snapshotIds.at(-1) ?? null, error: null, at };
    await this.store.transaction(({ repos }) => repos.simulations.move(sim.id, 'complete', patch, [this.assistantMessage(result, at)]));
  }

  /** Fails a background turn unless it is final already (or gone). */
  async failQueued(simulationId: string, code: string, message: string): Promise<void> {
    await this.store.repos.simulations.move(simulationId, 'fail', { error: { code, message }, at: iso(this.rt.now()) });
  }

  /**
   * Tells the onSimulated listeners (the usage meter) which twin the caller simulated: the one
   * asked for, else the mind's default one (no query once this process has looked it up).
   */
  private async simulated(turn: PreparedTurn): Promise<void> {
    if (this.simulatedListeners.length === 0) return;
    const twinId = turn.digitalTwinId ?? (await this.defaultTwin(turn.mind.id));
    if (twinId) for (const fn of this.simulatedListeners) fn(turn.auth, twinId);
  }

  private async defaultTwin(mindId: string): Promise<string | undefined> {
    let id = this.defaultTwins.get(mindId);
    if (id === undefined) {
      id = (await this.store.repos.twins.defaultOf(mindId))?.id;
      if (id !== undefined) this.defaultTwins.set(mindId, id);
    }
    return id;
  }

  private resolve(name: string | undefined): ResolvedModel {
    return resolveModel(this.engines, this.strictModels, name);
  }

  private completedSnapshots(mindId: string, twinId?: string): Promise<string[]> {
    return answeringSnapshotIds(this.store, mindId, twinId);
  }

  private async run(
    mind: MindRow,
    resolved: ResolvedModel,
    snapshotIds: string[],
    scenario: string,
    history: ConversationTurn[],
    onPart?: PartListener,
  ): Promise<SimulationResult> {
    const memory = await this.memories.memory(snapshotIds);
    const context = resolved.engine.wantsContext ? await this.memories.context(snapshotIds) : undefined;
    const redaction = this.redaction?.forMind(mind, memory);
    // The person's own corrections are searched with the passages (issue 32): one that answers the scenario leads.
    const corrections = await this.store.repos.corrections.ofMind(mind.id);
    const input = {
      mindName: mind.name,
      memory,
      scenario,
      ...(history.length ? { history } : {}),
      ...(context ? { context } : {}),
      ...(redaction ? { redaction } : {}),
      ...(corrections.length ? { corrections } : {}),
    };
    const result = await resolved.engine.simulate(input, onPart);
    return mind.redaction === 'off' ? result : { ...result, redactions: result.redactions ?? evidenceRedactions(result.evidence) };
  }

  private assistantMessage(result: SimulationResult, at: string): NewMessage {
    const { message, analysis, confidence, evidence } = result;
    return { id: this.rt.newId(), role: 'assistant', content: { text: message, analysis, confidence, evidence }, createdAt: at };
  }
}

/** The placeholders quoted in an answer's evidence, summed by kind. */
function evidenceRedactions(evidence: readonly EvidenceItem[]): RedactionCounts {
  return evidence.reduce<RedactionCounts>((sum, e) => addCounts(sum, e.redactions ?? {}), {});
}
