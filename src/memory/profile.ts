/**
 * The persona profile of a snapshot, computed from the person's memories in the analysis thread:
 * topics (the subjects they talk about: nouns and noun phrases) with what the person said about
 * each (stances), the passages behind them and how they felt (wink-nlp sentiment), keyphrases,
 * stated behaviours, speaking style and the Q→A pairs.
 *
 * Emotions (joy, anger, fear…) are not computed: no maintained emotion lexicon package is
 * published on npm that works offline, so affect is sentiment only.
 * Pure function of the memories (deterministic).
 */
import { behaviourKind } from './text/readings.ts';
import type { PhraseCount, ProfileBehaviour, ProfilePassage, ProfileRef, ProfileTopic, QaPair, SnapshotProfile } from './profile-types.ts';
import { styleOf } from './profile-style.ts';
import { pickTopics, readSentence, topicRank, type Candidate } from './profile-topics.ts';
import { words } from './sentences.ts';
import { roundScore as round } from './answer/scores.ts';
import type { Memory } from './types.ts';
import { FIRST_PERSON_WEIGHT, OPINION_WEIGHT, SENTENCE_POLARITY } from './tuning.ts';

const MAX_TOPICS = 15;
/** A topic is mentioned in at least this many sentences. */
const MIN_MENTIONS = 2;
const STANCES_PER_TOPIC = 3;
const PASSAGES_PER_TOPIC = 3;
/** Longest passage, in words (a single longer sentence is kept whole). */
const PASSAGE_WORDS = 80;
const MAX_KEYPHRASES = 15;
const MAX_BEHAVIOURS = 25;
const OPINION_RE = /\b(I think|I believe|I feel|I love|I hate|I like|I don't like|should|shouldn't|important|matters?|better|worse|best|worst|prefer|wish|hope)\b/i;
const FIRST_PERSON_RE = /\b(I|I'm|I've|I'd|my|me|we)\b/;

interface Analysed {
  index: number;
  memory: Memory;
  candidates: Candidate[];
  phrases: string[];
  sentiment: number;
}

const ref = (m: Memory): ProfileRef => ({ seq: m.seq, text: m.text, start: m.start, end: m.end, page: m.page });

function analyse(memory: Memory, index: number): Analysed {
  return { index, memory, ...readSentence(memory.text) };
}

function stanceScore(a: Analysed): number {
  return (OPINION_RE.test(a.memory.text) ? OPINION_WEIGHT : 0) + (FIRST_PERSON_RE.test(a.memory.text) ? FIRST_PERSON_WEIGHT : 0) + Math.abs(a.sentiment);
}

/** Memory i and the next one are consecutive sentences of the same answer. */
function continues(memories: readonly Memory[], i: number): boolean {
  const a = memories[i];
  const b = memories[i + 1];
  return a !== undefined && b !== undefined && b.seq === a.seq + 1 && b.question === a.question;
}

/**
 * Passages around the anchors (memory indexes, best first): each grows from its anchor to the
 * neighbouring sentences of the same answer, one before then one after, within PASSAGE_WORDS,
 * without overlapping another passage. Returned best anchor first.
 */
function passagesOf(memories: readonly Memory[], anchors: readonly number[]): ProfilePassage[] {
  const used = new Set<number>();
  const spans: Array<[number, number]> = [];
  const size = (i: number) => words(memories[i]?.text ?? '').length;
  for (const anchor of anchors) {
    if (spans.length >= PASSAGES_PER_TOPIC) break;
    if (used.has(anchor)) continue;
    let lo = anchor;
    let hi = anchor;
    let count = size(anchor);
    for (let grew = true; grew; ) {
      grew = false;
      if (continues(memories, lo - 1) && !used.has(lo - 1) && count + size(lo - 1) <= PASSAGE_WORDS) {
        count += size(--lo);
        grew = true;
      }
      if (continues(memories, hi) && !used.has(hi + 1) && count + size(hi + 1) <= PASSAGE_WORDS) {
        count += size(++hi);
        grew = true;
      }
    }
    for (let i = lo; i <= hi; i++) used.add(i);
    spans.push([lo, hi]);
  }
  return spans.flatMap(([lo, hi]) => {
    const first = memories[lo];
    const last = memories[hi];
    if (!first || !last) return [];
    const text = memories
      .slice(lo, hi + 1)
      .map((m) => m.text)
      .join(' ');
    return [{ firstSeq: first.seq, lastSeq: last.seq, text, start: first.start, end: first.end, page: first.page }];
  });
}

function topicsOf(memories: readonly Memory[], analysed: readonly Analysed[]): ProfileTopic[] {
  return pickTopics(
    analysed.map((a) => a.candidates),
    MIN_MENTIONS,
  )
    .sort((a, b) => topicRank(b.sentences.length, b.words) - topicRank(a.sentences.length, a.words) || a.key.localeCompare(b.key))
    .slice(0, MAX_TOPICS)
    .map((pick) => {
      const items = pick.sentences.flatMap((i) => analysed[i] ?? []);
      const label = [...pick.forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? pick.key;
      const ranked = [...items].sort((a, b) => stanceScore(b) - stanceScore(a) || a.memory.seq - b.memory.seq);
      const stances = ranked
        .slice(0, STANCES_PER_TOPIC)
        .sort((a, b) => a.memory.seq - b.memory.seq)
        .map((a) => ref(a.memory));
      const sum = items.reduce((s, a) => s + a.sentiment, 0);
      return {
        key: pick.key,
        label,
        mentions: items.length,
        sentiment: round(sum / Math.max(1, items.length)),
        positive: items.filter((a) => a.sentiment >= SENTENCE_POLARITY).length,
        negative: items.filter((a) => a.sentiment <= -SENTENCE_POLARITY).length,
        stances,
        passages: passagesOf(
          memories,
          ranked.map((a) => a.index),
        ),
      };
    });
}

function keyphrasesOf(analysed: readonly Analysed[]): PhraseCount[] {
  const counts = new Map<string, number>();
  for (const a of analysed) for (const p of new Set(a.phrases)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_KEYPHRASES)
    .map(([phrase, count]) => ({ phrase, count }));
}

function behavioursOf(analysed: readonly Analysed[], topics: readonly ProfileTopic[]): ProfileBehaviour[] {
  const rank: Record<string, number> = { always: 0, never: 1, usually: 2, sometimes: 3, would: 4 };
  const out: ProfileBehaviour[] = [];
  for (const a of analysed) {
    const kind = behaviourKind(a.memory.text);
    if (!kind) continue;
    const keys = new Set(a.candidates.map((c) => c.key));
    out.push({ kind, topic: topics.find((t) => keys.has(t.key))?.key ?? null, ref: ref(a.memory) });
  }
  return out
    .sort((a, b) => (rank[a.kind] ?? 9) - (rank[b.kind] ?? 9) || a.ref.seq - b.ref.seq)
    .slice(0, MAX_BEHAVIOURS);
}

/** Consecutive memories answering the same interviewer question form one Q→A pair. */
export function qaPairsOf(memories: readonly Memory[]): QaPair[] {
  const pairs: QaPair[] = [];
  for (const m of memories) {
    const last = pairs[pairs.length - 1];
    if (m.question === null) continue;
    if (last && last.question === m.question && last.lastSeq === m.seq - 1) last.lastSeq = m.seq;
    else pairs.push({ question: m.question, firstSeq: m.seq, lastSeq: m.seq });
  }
  return pairs;
}

export function buildProfile(memories: readonly Memory[]): SnapshotProfile {
  return profileWithSentiments(memories).profile;
}

/** The profile, and the sentiment of each memory read on the way (the linguistic markers reuse them). */
export function profileWithSentiments(memories: readonly Memory[]): { profile: SnapshotProfile; sentiments: number[] } {
  const analysed = memories.map(analyse);
  const topics = topicsOf(memories, analysed);
  const profile: SnapshotProfile = {
    version: 2,
    topics,
    keyphrases: keyphrasesOf(analysed),
    behaviours: behavioursOf(analysed, topics),
    style: styleOf(memories),
    qa: qaPairsOf(memories),
  };
  return { profile, sentiments: analysed.map((a) => a.sentiment) };
}
