import { LRUCache } from 'lru-cache';
import type { EngineRegistry } from '../engines/registry.ts';
import { MODEL_NAMES } from '../engines/registry.ts';
import type { EvidenceItem, SimulationAnalysis } from '../engines/types.ts';
import type { StoredMemory } from '../memory/types.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { invalid } from './errors.ts';
import type { MindService } from './minds.ts';
import type { ProfileService } from './profile.ts';
import { snapshotNotReady } from './snapshots.ts';

export interface SimulateRequest {
  mindId: string;
  selectedSimulationModel?: string;
  scenario: { message: string };
}

export interface SimulateResponse {
  message: string;
  model: string;
  snapshotIds: string[];
  analysis: SimulationAnalysis;
  confidence: number;
  evidence: EvidenceItem[];
}

/** Runs a scenario against a mind's memory: all of its completed snapshots. */
export class SimulationService {
  /** Memories per exact set of completed snapshots, so repeated simulations skip the database. */
  private readonly memoryCache = new LRUCache<string, StoredMemory[]>({ max: 32 });

  constructor(
    private readonly store: Store,
    private readonly minds: MindService,
    private readonly engines: EngineRegistry,
    private readonly strictModels: boolean,
    private readonly profiles?: ProfileService,
  ) {}

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
    const snapshotIds = (await this.store.repos.snapshots.completedIds(mind.id)).map((r) => r.id);
    if (snapshotIds.length === 0) throw snapshotNotReady();
    const memoryKey = snapshotIds.join(',');
    const memories = await this.loadMemories(memoryKey, snapshotIds);
    const context = resolved.engine.wantsContext && this.profiles ? await this.profiles.context(snapshotIds) : undefined;
    const result = await resolved.engine.simulate({
      mindName: mind.name,
      memoryKey,
      memories,
      scenario: req.scenario.message,
      ...(context ? { context } : {}),
    });
    return { message: result.message, model: resolved.model, snapshotIds, analysis: result.analysis, confidence: result.confidence, evidence: result.evidence };
  }

  private async loadMemories(key: string, snapshotIds: string[]): Promise<StoredMemory[]> {
    const hit = this.memoryCache.get(key);
    if (hit) return hit;
    const rows = await this.store.repos.snapshots.memoriesOf(snapshotIds);
    const memories: StoredMemory[] = rows.map((r) => ({
      snapshotId: r.snapshot_id,
      seq: r.seq,
      speaker: r.speaker,
      text: r.text,
      start: r.start_s,
      end: r.end_s,
      page: r.page,
      question: r.question,
    }));
    this.memoryCache.set(key, memories);
    return memories;
  }
}
