/**
 * A mind's profile: the snapshot profiles of its completed snapshots merged into one, every
 * statement carrying its source (snapshotId + seq/start/end/page). Topics merge by key, their
 * passages keep their snapshot. Profiles stored by version 1 (single-noun topics, no passages)
 * still merge: their topics are re-keyed by lemma, pronouns and contractions dropped, missing
 * fields read as empty. Pure and deterministic.
 */
import { addCounts, type RedactionCounts } from '../privacy/kinds.ts';
import type { BehaviourKind } from './text/readings.ts';
import { roundScore as round } from './answer/scores.ts';
import { legacyTopicKey, topicRank } from './profile-topics.ts';
import type { AffectLabel, PhraseCount, ProfilePassage, ProfileRef, ProfileStyle, ProfileTopic, StoredSnapshotProfile } from './profile-types.ts';
import { AFFECT_LEANING, AFFECT_MIXED_SHARE } from './tuning.ts';

export interface EvidenceRef extends ProfileRef {
  snapshotId: string;
}

export interface EvidencePassage extends ProfilePassage {
  snapshotId: string;
}

export interface MindTopic {
  key: string;
  label: string;
  mentions: number;
  affect: { sentiment: number; label: AffectLabel; positive: number; negative: number };
  stances: EvidenceRef[];
  passages: EvidencePassage[];
}

export interface MindProfile {
  snapshotIds: string[];
  topics: MindTopic[];
  keyphrases: PhraseCount[];
  behaviours: Array<{ kind: BehaviourKind; topic: string | null; evidence: EvidenceRef }>;
  style: ProfileStyle;
  qaPairCount: number;
  qaPairs: Array<{ snapshotId: string; question: string; firstSeq: number; lastSeq: number }>;
  /** What redaction replaced in these snapshots, summed by kind (never the values). */
  redactions: RedactionCounts;
}

const MAX_TOPICS = 15;
const MAX_STANCES = 4;
const MAX_PASSAGES = 3;
const MAX_BEHAVIOURS = 30;
const MAX_QA = 200;

function affectLabel(sentiment: number, positive: number, negative: number, mentions: number): AffectLabel {
  if (positive >= mentions * AFFECT_MIXED_SHARE && negative >= mentions * AFFECT_MIXED_SHARE) return 'mixed';
  if (sentiment >= AFFECT_LEANING) return 'positive';
  if (sentiment <= -AFFECT_LEANING) return 'negative';
  return 'neutral';
}

function sumPhrases(lists: ReadonlyArray<readonly PhraseCount[]>, top: number): PhraseCount[] {
  const counts = new Map<string, number>();
  for (const list of lists) for (const p of list) counts.set(p.phrase, (counts.get(p.phrase) ?? 0) + p.count);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([phrase, count]) => ({ phrase, count }));
}

interface TopicSum {
  labels: Map<string, number>;
  mentions: number;
  sentimentSum: number;
  positive: number;
  negative: number;
  stances: EvidenceRef[];
  /** Per snapshot, in snapshot order. */
  passages: EvidencePassage[][];
}

/** Topics of a stored profile with their merge key; version-1 topics re-keyed (or dropped when not a subject). */
function topicsOf(profile: StoredSnapshotProfile): Array<{ key: string; topic: Omit<ProfileTopic, 'passages'>; passages: ProfilePassage[] }> {
  return (profile.topics ?? []).flatMap((t) => {
    const key = profile.version === 1 ? legacyTopicKey(t.label, t.key) : t.key;
    return key === null ? [] : [{ key, topic: t, passages: t.passages ?? [] }];
  });
}

/** Round-robin over the snapshots' passages, so that each snapshot is heard. */
function interleave(lists: readonly EvidencePassage[][], max: number): EvidencePassage[] {
  const out: EvidencePassage[] = [];
  for (let i = 0; out.length < max && lists.some((l) => i < l.length); i++) {
    for (const l of lists) {
      const p = l[i];
      if (p && out.length < max) out.push(p);
    }
  }
  return out;
}

/** Merge snapshot profiles, given in snapshot order (version-1 and version-2 rows alike). */
export function mergeProfiles(profiles: ReadonlyArray<{ snapshotId: string; profile: StoredSnapshotProfile }>): MindProfile {
  const topics = new Map<string, TopicSum>();
  for (const { snapshotId, profile } of profiles) {
    for (const { key, topic: t, passages } of topicsOf(profile)) {
      const e: TopicSum = topics.get(key) ?? { labels: new Map(), mentions: 0, sentimentSum: 0, positive: 0, negative: 0, stances: [], passages: [] };
      topics.set(key, e);
      e.labels.set(t.label, (e.labels.get(t.label) ?? 0) + t.mentions);
      e.mentions += t.mentions;
      e.sentimentSum += t.sentiment * t.mentions;
      e.positive += t.positive;
      e.negative += t.negative;
      e.stances.push(...(t.stances ?? []).map((r) => ({ snapshotId, ...r })));
      e.passages.push(passages.map((p) => ({ snapshotId, ...p })));
    }
  }
  const styles = profiles.map((p) => p.profile.style ?? { words: 0, sentences: 0, avgSentenceWords: 0, signaturePhrases: [], fillers: [], hedges: [] });
  const words = styles.reduce((s, x) => s + x.words, 0);
  const sentences = styles.reduce((s, x) => s + x.sentences, 0);
  const qaPairs = profiles.flatMap(({ snapshotId, profile }) => profile.qa.map((q) => ({ snapshotId, ...q })));
  return {
    snapshotIds: profiles.map((p) => p.snapshotId),
    topics: [...topics]
      .sort((a, b) => topicRank(b[1].mentions, b[0].split(' ').length) - topicRank(a[1].mentions, a[0].split(' ').length) || a[0].localeCompare(b[0]))
      .slice(0, MAX_TOPICS)
      .map(([key, e]) => {
        const sentiment = round(e.sentimentSum / Math.max(1, e.mentions));
        const label = [...e.labels].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? key;
        return {
          key,
          label,
          mentions: e.mentions,
          affect: { sentiment, label: affectLabel(sentiment, e.positive, e.negative, e.mentions), positive: e.positive, negative: e.negative },
          stances: e.stances.slice(0, MAX_STANCES),
          passages: interleave(e.passages, MAX_PASSAGES),
        };
      }),
    keyphrases: sumPhrases(
      profiles.map((p) => p.profile.keyphrases),
      15,
    ),
    behaviours: profiles
      .flatMap(({ snapshotId, profile }) => profile.behaviours.map((b) => ({ kind: b.kind, topic: b.topic, evidence: { snapshotId, ...b.ref } })))
      .slice(0, MAX_BEHAVIOURS),
    style: {
      words,
      sentences,
      avgSentenceWords: sentences ? Math.round((words / sentences) * 10) / 10 : 0,
      signaturePhrases: sumPhrases(
        styles.map((s) => s.signaturePhrases),
        10,
      ),
      fillers: sumPhrases(
        styles.map((s) => s.fillers),
        20,
      ),
      hedges: sumPhrases(
        styles.map((s) => s.hedges),
        20,
      ),
    },
    qaPairCount: qaPairs.length,
    qaPairs: qaPairs.slice(0, MAX_QA),
    redactions: profiles.reduce<RedactionCounts>((sum, p) => addCounts(sum, ('redactions' in p.profile ? p.profile.redactions : undefined) ?? {}), {}),
  };
}
