import type { StoredMemory } from '../memory/types.ts';

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
  /** Identifies this exact memory (e.g. the sorted snapshot ids); engines may cache per key. */
  memoryKey: string;
  memories: StoredMemory[];
  scenario: string;
}

/** An engine answers a scenario from a mind's memories. */
export interface Engine {
  simulate(input: SimulationInput): Promise<SimulationResult>;
}
