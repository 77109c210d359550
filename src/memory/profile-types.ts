import type { BehaviourKind } from './behaviours.ts';

/** Where a statement comes from within its snapshot (the snapshot is implied by the stored profile). */
export interface ProfileRef {
  seq: number;
  text: string;
  start: number | null;
  end: number | null;
  page: number | null;
}

export type AffectLabel = 'positive' | 'negative' | 'neutral' | 'mixed';

export interface ProfileTopic {
  /** Stem of the topic noun: stable key for merging snapshots. */
  key: string;
  /** The most frequent surface form. */
  label: string;
  /** Memories (sentences) mentioning it. */
  mentions: number;
  /** Mean wink-nlp sentiment of those sentences, in [-1, 1]. */
  sentiment: number;
  positive: number;
  negative: number;
  /** What the person said about it: up to STANCES_PER_TOPIC opinionated statements. */
  stances: ProfileRef[];
}

export interface ProfileBehaviour {
  kind: BehaviourKind;
  /** Key of the first profile topic the statement mentions, if any. */
  topic: string | null;
  ref: ProfileRef;
}

export interface PhraseCount {
  phrase: string;
  count: number;
}

export interface ProfileStyle {
  words: number;
  sentences: number;
  avgSentenceWords: number;
  signaturePhrases: PhraseCount[];
  fillers: PhraseCount[];
  hedges: PhraseCount[];
}

/** An interviewer's question and the person's sentences that answered it (seq range, inclusive). */
export interface QaPair {
  question: string;
  firstSeq: number;
  lastSeq: number;
}

/** The persona profile of one snapshot, computed with its memories (deterministic). */
export interface SnapshotProfile {
  version: 1;
  topics: ProfileTopic[];
  keyphrases: PhraseCount[];
  behaviours: ProfileBehaviour[];
  style: ProfileStyle;
  qa: QaPair[];
}
