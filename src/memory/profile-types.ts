import type { BehaviourKind } from './text/readings.ts';
import type { RedactionCounts } from '../privacy/kinds.ts';

/** Where a statement comes from within its snapshot (the snapshot is implied by the stored profile). */
export interface ProfileRef {
  seq: number;
  text: string;
  start: number | null;
  end: number | null;
  page: number | null;
}

/**
 * A stretch of the person's own consecutive sentences (same question, consecutive seq) around
 * mentions of a topic, at most ~80 words; start/end/page are those of its first sentence.
 */
export interface ProfilePassage {
  firstSeq: number;
  lastSeq: number;
  text: string;
  start: number | null;
  end: number | null;
  page: number | null;
}

export type AffectLabel = 'positive' | 'negative' | 'neutral' | 'mixed';

export interface ProfileTopic {
  /** The noun or noun phrase, lower case, head noun lemmatised ("design system"): stable key for merging snapshots. */
  key: string;
  /** The most frequent surface form ("design systems", "Open Collective"). */
  label: string;
  /** Memories (sentences) mentioning it. */
  mentions: number;
  /** Mean wink-nlp sentiment of those sentences, in [-1, 1]. */
  sentiment: number;
  positive: number;
  negative: number;
  /** What the person said about it: up to STANCES_PER_TOPIC opinionated statements. */
  stances: ProfileRef[];
  /** The passages behind it: up to PASSAGES_PER_TOPIC stretches of the person's words around its mentions, most telling first. */
  passages: ProfilePassage[];
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
  /** 2: topics are noun phrases with passages; 1 (stored by earlier versions): single nouns, no passages. */
  version: 2;
  topics: ProfileTopic[];
  keyphrases: PhraseCount[];
  behaviours: ProfileBehaviour[];
  style: ProfileStyle;
  qa: QaPair[];
  /** What the redaction stage replaced in this snapshot (or, outbound, replaces in what is sent): counts by kind, never the values. */
  redactions?: RedactionCounts;
}

/** A profile as stored by version 1: topics were single nouns (pronouns slipped in) without passages. */
export type SnapshotProfileV1 = Omit<SnapshotProfile, 'version' | 'topics'> & {
  version: 1;
  topics: Array<Omit<ProfileTopic, 'passages'> & { passages?: ProfilePassage[] }>;
};

/** Any stored snapshot profile: what mergeProfiles accepts. */
export type StoredSnapshotProfile = SnapshotProfile | SnapshotProfileV1;
