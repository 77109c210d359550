/**
 * What both ports of an engine share — the evidence an answer rests on, and the profile and
 * reflections an engine may ask for — apart from `types.ts` so that the typed-question port
 * (`questions.ts`) and the `Engine` port can use them without importing each other.
 */
import type { RedactionCounts } from '../privacy/kinds.ts';
import type { MindProfile } from '../memory/profile-merge.ts';

export interface EvidenceItem {
  text: string;
  speaker: string | null;
  /** The snapshot the words come from; null for a correction. */
  snapshotId: string | null;
  start?: number;
  end?: number;
  page?: number;
  score: number;
  /** Where the words come from: the transcript, or the person's own correction (issue 32). */
  source: 'transcript' | 'correction';
  /** The correction quoted (source "correction"). */
  correctionId?: string;
  /** The placeholders in `text` (a mind whose redaction is stored), by kind. */
  redactions?: RedactionCounts;
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
