import type { MindProfile } from '../memory/profile-merge.ts';
import type { MindMemory } from '../memory/mind-memory.ts';

export interface EvidenceItem {
  text: string;
  speaker: string | null;
  snapshotId: string;
  start?: number;
  end?: number;
  page?: number;
  score: number;
}

export interface SimulationAnalysis {
  thinking: string;
  feeling: string;
  saying: string;
  acting: string;
}

export interface SimulationResult {
  message: string;
  analysis: SimulationAnalysis;
  confidence: number;
  evidence: EvidenceItem[];
}

export interface SimulationInput {
  mindName: string;
  /** The mind's memory: its memories and their indexes, for one exact set of completed snapshots. */
  memory: MindMemory;
  scenario: string;
  /** Earlier messages of a conversation, oldest first: a thin follow-up ask leans on them. */
  priorTurns?: string[];
  /** Profile and expert reflections, given to engines that ask for them (`wantsContext`). */
  context?: EngineContext;
}

export interface Reflection {
  snapshotId: string;
  expert: string;
  text: string;
}

/** What the LLM engine gets besides memories: the merged profile and the experts' reflections. */
export interface EngineContext {
  profile: MindProfile;
  reflections: Reflection[];
}

/** An engine answers a scenario from a mind's memories. */
export interface Engine {
  /** True when the engine uses `SimulationInput.context` (loading it costs a query per new memory key). */
  readonly wantsContext?: boolean;
  simulate(input: SimulationInput): Promise<SimulationResult>;
}
