import type { Utterance } from '../ingest/transcript.ts';

/** One sentence-level memory of the person, with its source. */
export interface Memory {
  /** Position within its snapshot (0-based), stable for the same input. */
  seq: number;
  speaker: string | null;
  text: string;
  start: number | null;
  end: number | null;
  page: number | null;
  /** The interviewer's question this sentence answers, when there was one (context, not the person's words). */
  question: string | null;
}

export interface MemoryBankInput {
  utterances: Utterance[];
  /** The mind's name, used to find the person among the speakers. */
  mindName: string;
  /** Explicit speaker chosen by the client; wins over every heuristic. */
  speaker?: string | null;
}

export interface MemoryBank {
  /** The speaker taken to be the person (null for unlabelled text, which is all theirs). */
  person: string | null;
  memories: Memory[];
}

/** A memory as loaded for simulation: tagged with the snapshot it came from. */
export interface StoredMemory extends Memory {
  snapshotId: string;
}
