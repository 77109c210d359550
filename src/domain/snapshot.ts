/**
 * A snapshot: one uploaded conversation of the person, turned into memories by a job. This module
 * is the one place that says what a snapshot is, which states it moves through and which moves are
 * allowed; the repository guards each move in SQL with these rules (`UPDATE … WHERE status IN`),
 * so a late or repeated job can never move a snapshot backwards.
 *
 *   pending ─start─▶ processing ─complete─▶ completed
 *      └─────fail───────┴──────fail───────▶ failed
 *   (processing ─start─▶ processing: a job redelivered after its worker died)
 */
import type { Fidelity } from '../engines/fidelity-check.ts';

export type SnapshotState = 'pending' | 'processing' | 'completed' | 'failed';

/** The moves a snapshot can make: from which states, to which one. */
export const TRANSITIONS = {
  /** A job takes it (again, when a worker died holding it). */
  start: { from: ['pending', 'processing'], to: 'processing' },
  complete: { from: ['processing'], to: 'completed' },
  /** The file cannot be read, or every retry failed. */
  fail: { from: ['pending', 'processing'], to: 'failed' },
} as const satisfies Record<string, { from: readonly SnapshotState[]; to: SnapshotState }>;

export type SnapshotMove = keyof typeof TRANSITIONS;

/** A completed or failed snapshot never changes again (it only disappears with its mind). */
export const isFinal = (status: SnapshotState | (string & {})): boolean => status === 'completed' || status === 'failed';

export interface SnapshotError {
  code: string;
  message: string;
}

export interface Snapshot {
  id: string;
  mindId: string;
  accountId: string;
  artifactId: string;
  digitalTwinId: string | null;
  /** The speaker the client named as the person, if any. */
  speaker: string | null;
  status: SnapshotState;
  error: SnapshotError | null;
  /** What the file turned out to be (vtt, docx, pdf), once processed. */
  fileKind: string | null;
  /** The speaker taken to be the person, once processed. */
  person: string | null;
  memoryCount: number | null;
  /** Leave-some-out self-check of the offline engine (null: not completed or too few Q/A pairs). */
  fidelity: Fidelity | null;
  /** Why the expert reflections are missing although an LLM is configured. */
  reflectionsError: string | null;
  /** When the conversation happened (YYYY-MM-DD): given at creation, else the day it was created. */
  mindsetDate: string;
  createdAt: string;
  /** The last change: a move, a link to a twin or an unlink. */
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** What a new snapshot is made of; the rest starts empty and `pending`. */
export type NewSnapshot = Pick<Snapshot, 'id' | 'mindId' | 'accountId' | 'artifactId' | 'digitalTwinId' | 'speaker' | 'mindsetDate' | 'createdAt'>;

/** What processing found, recorded when the snapshot completes. */
export type SnapshotOutcome = Pick<Snapshot, 'fileKind' | 'person' | 'memoryCount' | 'fidelity' | 'reflectionsError'> & {
  /** The person's word tokens in the memories (the mind's tokenCount sums them). */
  tokenCount: number;
};
