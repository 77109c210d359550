/**
 * The persona profile of a snapshot, computed from the person's memories in the analysis thread:
 * topics (frequent nouns) with what the person said about each (stances) and how they felt
 * (wink-nlp sentiment), keyphrases, stated behaviours, speaking style and the Q→A pairs.
 *
 * Emotions (joy, anger, fear…) are not computed: no maintained emotion lexicon package is
 * published on npm that works offline, so affect is sentiment only.
 * Pure function of the memories (deterministic).
 */
import { behaviourKind } from './behaviours.ts';
import type { PhraseCount, ProfileBehaviour, ProfileRef, ProfileTopic, QaPair, SnapshotProfile } from './profile-types.ts';
import { styleOf } from './profile-style.ts';
import { its, nlp } from './sentences.ts';
import type { Memory } from './types.ts';

const MAX_TOPICS = 15;
const STANCES_PER_TOPIC = 3;
const MAX_KEYPHRASES = 15;
const MAX_BEHAVIOURS = 25;
/** Nouns that are everywhere in speech and say nothing about what someone talks about. */
const GENERIC = new Set(
  'thing things way time times lot lots people person kind sort stuff bit year years day days something anything everything nothing point part question yeah guy guys place end fact number lots idea ones one side case couple today week weeks month months reason world life'.split(
    ' ',
  ),
);
const OPINION_RE = /\b(I think|I believe|I feel|I love|I hate|I like|I don't like|should|shouldn't|important|matters?|better|worse|best|worst|prefer|wish|hope)\b/i;
const FIRST_PERSON_RE = /\b(I|I'm|I've|I'd|my|me|we)\b/;

interface Analysed {
  memory: Memory;
  nouns: string[];
  phrases: string[];
  sentiment: number;
}

const ref = (m: Memory): ProfileRef => ({ seq: m.seq, text: m.text, start: m.start, end: m.end, page: m.page });
const round = (n: number) => Math.round(n * 1000) / 1000;

/** Nouns (normal form) and noun phrases (2–3 words ending in a noun) of one sentence, with its sentiment. */
function analyse(memory: Memory): Analysed {
  const doc = nlp.readDoc(memory.text);
  const tokens = doc.tokens();
  const pos = tokens.out(its.pos) as string[];
  const normals = tokens.out(its.normal) as string[];
  const stops = tokens.out(its.stopWordFlag) as boolean[];
  const nouns: string[] = [];
  const phrases: string[] = [];
  let run: Array<{ word: string; adjective: boolean }> = [];
  const flush = () => {
    while (run.length > 0 && run[run.length - 1]?.adjective) run.pop();
    if (run.length >= 2) phrases.push(run.slice(-3).map((r) => r.word).join(' '));
    run = [];
  };
  normals.forEach((word, i) => {
    const tag = pos[i];
    const content = !stops[i] && /^\p{L}[\p{L}'-]+$/u.test(word) && !GENERIC.has(word);
    if ((tag === 'NOUN' || tag === 'PROPN') && content) {
      nouns.push(word);
      run.push({ word, adjective: false });
    } else if (tag === 'ADJ' && content) run.push({ word, adjective: true });
    else flush();
  });
  flush();
  const sentiment = Number(doc.out(its.sentiment)) || 0;
  return { memory, nouns, phrases, sentiment };
}

/** Singular/plural folding for topic keys ("teams" → "team"), without a stemmer's truncations. */
function topicKey(noun: string): string {
  if (noun.length > 4 && noun.endsWith('ies')) return `${noun.slice(0, -3)}y`;
  if (noun.length > 3 && noun.endsWith('s') && !noun.endsWith('ss')) return noun.slice(0, -1);
  return noun;
}

function stanceScore(a: Analysed): number {
  return (OPINION_RE.test(a.memory.text) ? 2 : 0) + (FIRST_PERSON_RE.test(a.memory.text) ? 0.5 : 0) + Math.abs(a.sentiment);
}

function topicsOf(analysed: readonly Analysed[]): ProfileTopic[] {
  const byKey = new Map<string, { forms: Map<string, number>; items: Analysed[] }>();
  type Entry = { forms: Map<string, number>; items: Analysed[] };
  for (const a of analysed) {
    const seen = new Set<string>();
    for (const noun of a.nouns) {
      const key = topicKey(noun);
      const entry: Entry = byKey.get(key) ?? { forms: new Map(), items: [] };
      byKey.set(key, entry);
      entry.forms.set(noun, (entry.forms.get(noun) ?? 0) + 1);
      if (!seen.has(key)) entry.items.push(a);
      seen.add(key);
    }
  }
  return [...byKey]
    .filter(([, e]) => e.items.length >= 2)
    .sort((a, b) => b[1].items.length - a[1].items.length || a[0].localeCompare(b[0]))
    .slice(0, MAX_TOPICS)
    .map(([key, e]) => {
      const label = [...e.forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? key;
      const stances = [...e.items]
        .sort((a, b) => stanceScore(b) - stanceScore(a) || a.memory.seq - b.memory.seq)
        .slice(0, STANCES_PER_TOPIC)
        .sort((a, b) => a.memory.seq - b.memory.seq)
        .map((a) => ref(a.memory));
      const sum = e.items.reduce((s, a) => s + a.sentiment, 0);
      return {
        key,
        label,
        mentions: e.items.length,
        sentiment: round(sum / e.items.length),
        positive: e.items.filter((a) => a.sentiment >= 0.2).length,
        negative: e.items.filter((a) => a.sentiment <= -0.2).length,
        stances,
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
    const keys = new Set(a.nouns.map(topicKey));
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
  const analysed = memories.map(analyse);
  const topics = topicsOf(analysed);
  return {
    version: 1,
    topics,
    keyphrases: keyphrasesOf(analysed),
    behaviours: behavioursOf(analysed, topics),
    style: styleOf(memories),
    qa: qaPairsOf(memories),
  };
}
