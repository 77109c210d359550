import type { EngineRegistry, ModelInfo } from '../engines/registry.ts';
import { MODEL_NAMES } from '../engines/registry.ts';
import type { EvidenceItem, SimulationAnalysis } from '../engines/types.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { invalid, notFound } from '../kernel/errors.ts';
import type { MindService } from './minds.ts';
import type { MindMemories } from './mind-memory.ts';
import { snapshotNotReady } from './snapshots.ts';

export interface SimulateRequest {
  mindId: string;
  selectedSimulationModel?: string;
  scenario: { message: string };
  /** Earlier messages of the conversation, oldest first (a follow-up leans on them). */
  priorTurns?: string[];
  /** Simulate this twin: only the completed snapshots linked to it. */
  digitalTwinId?: string;
}

export interface SimulateResponse {
  message: string;
  model: string;
  snapshotIds: string[];
  analysis: SimulationAnalysis;
  confidence: number;
  evidence: EvidenceItem[];
}

/** Runs a scenario against a mind's memory: its completed snapshots linked to a twin (to the one asked for, if any). */
export class SimulationService {
  constructor(
    private readonly store: Store,
    private readonly minds: MindService,
    private readonly engines: EngineRegistry,
    private readonly strictModels: boolean,
    private readonly memories: MindMemories,
  ) {}

  /** The simulation models, and whether each can run here. */
  models(): ModelInfo[] {
    return this.engines.list();
  }

  async simulate(auth: AuthContext, req: SimulateRequest): Promise<SimulateResponse> {
    const resolved = this.engines.resolve(req.selectedSimulationModel);
    if (!resolved) {
      throw invalid('unknown_model', `Unknown simulation model "${req.selectedSimulationModel}".`, {
        field: 'selectedSimulationModel',
        allowed: [...MODEL_NAMES],
      });
    }
    if (this.strictModels && req.selectedSimulationModel && resolved.model !== req.selectedSimulationModel) {
      throw invalid('model_unavailable', `The model "${req.selectedSimulationModel}" is not configured on this server.`, {
        field: 'selectedSimulationModel',
        available: this.engines.list().filter((m) => m.available).map((m) => m.id),
      });
    }
    const mind = await this.minds.require(auth, req.mindId);
    const twinId = req.digitalTwinId;
    if (twinId !== undefined && !(await this.store.repos.twins.byId(auth.accountId, mind.id, twinId))) {
      throw notFound('The digital twin', 'digital_twin_not_found');
    }
    const snapshotIds = (await this.store.repos.snapshots.completedIds(mind.id, twinId)).map((r) => r.id);
    if (snapshotIds.length === 0) throw snapshotNotReady();
    const memory = await this.memories.memory(snapshotIds);
    const context = resolved.engine.wantsContext ? await this.memories.context(snapshotIds) : undefined;
    const result = await resolved.engine.simulate({
      mindName: mind.name,
      memory,
      scenario: req.scenario.message,
      ...(req.priorTurns?.length ? { priorTurns: req.priorTurns } : {}),
      ...(context ? { context } : {}),
    });
    return { message: result.message, model: resolved.model, snapshotIds, analysis: result.analysis, confidence: result.confidence, evidence: result.evidence };
  }
}
