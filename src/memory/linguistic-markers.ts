/**
 * Linguistic markers of the person's own words: measured counts, not a personality assessment.
 * Each marker is tallied per snapshot when it is processed (counts and a few example sentences,
 * stored), so a mind's markers are the same counts summed over its snapshots, and its value is
 * derived from the sums: certainty vs hedging, sentiment, first-person focus (I vs we), question
 * rate and talkativeness. Pure and deterministic.
 */
import type { ProfileRef } from './profile-types.ts';
import { sentimentOf, words } from './sentences.ts';
import { roundScore as round } from './answer/scores.ts';
import type { TranscriptTurn } from './transcript-turns.ts';
import type { Memory } from './types.ts';
import { SENTENCE_POLARITY } from './tuning.ts';

export type MarkerKey = 'certainty' | 'sentiment' | 'first_person_focus' | 'question_rate' | 'talkativeness';

export interface MarkerTally {
  key: MarkerKey;
  counts: Record<string, number>;
  /** Sentences of the person that show the marker, by position. */
  examples: ProfileRef[];
}

/** What a snapshot stores. */
export interface SnapshotMarkers {
  version: 1;
  markers: MarkerTally[];
}

export interface LinguisticMarker {
  kind: 'linguistic_markers';
  key: MarkerKey;
  label: string;
  value: number | null;
  scale: string;
  method: string;
  /** Words the value rests on. */
  words: number;
  details: Record<string, number>;
  examples: Array<ProfileRef & { snapshotId: string }>;
}

export const CERTAINTY = ['definitely', 'certainly', 'absolutely', 'clearly', 'obviously', 'of course', 'without question', 'without a doubt', 'no doubt', 'undoubtedly', 'surely', 'always', 'never', "i'm sure", 'i am sure', 'i know'];
export const HEDGES = ['maybe', 'perhaps', 'probably', 'possibly', 'might', 'i think', 'i guess', 'i suppose', 'i feel like', 'kind of', 'sort of', 'somewhat', 'it depends', 'not sure', 'i believe', 'could be'];
const SINGULAR = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd", "i'll"]);
const PLURAL = new Set(['we', 'us', 'our', 'ours', 'ourselves', "we're", "we've", "we'd", "we'll"]);
const EXAMPLES = 3;
const EXAMPLE_WORDS = 60;

const per1000 = (n: number, of: number) => (of > 0 ? round((n * 1000) / of) : 0);
const ratio = (a: number, b: number) => (a + b > 0 ? round(a / (a + b)) : null);
const ref = (m: Memory): ProfileRef => ({ seq: m.seq, text: m.text, start: m.start, end: m.end, page: m.page });

const CERTAINTY_SET = new Set(CERTAINTY);
const HEDGE_SET = new Set(HEDGES);

/** Occurrences of the phrases (one to three words) in a sentence's words: one pass, each position tried once. */
function phraseCount(tokens: readonly string[], phrases: ReadonlySet<string>): number {
  let n = 0;
  for (let i = 0; i < tokens.length; i++) {
    const one = tokens[i] ?? '';
    const two = `${one} ${tokens[i + 1] ?? ''}`;
    const three = `${two} ${tokens[i + 2] ?? ''}`;
    if (phrases.has(one) || phrases.has(two) || phrases.has(three)) n++;
  }
  return n;
}

/** The `n` memories scoring highest (above 0), in transcript order. */
function top(memories: readonly Memory[], score: (m: Memory, i: number) => number, n: number): Memory[] {
  return memories
    .map((m, i) => ({ m, s: score(m, i) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.m.seq - b.m.seq)
    .slice(0, n)
    .map((x) => x.m)
    .sort((a, b) => a.seq - b.seq);
}

const distinct = (ms: Memory[]) => ms.filter((m, i) => ms.findIndex((x) => x.seq === m.seq) === i);

/** The person's longest answer (consecutive sentences under one question), cut to EXAMPLE_WORDS. Linear in the sentences. */
function longestAnswer(memories: readonly Memory[]): ProfileRef[] {
  let best = { from: 0, to: -1, words: 0 };
  let from = 0;
  let count = 0;
  memories.forEach((m, i) => {
    const last = memories[i - 1];
    if (!(last && m.seq === last.seq + 1 && m.question === last.question)) [from, count] = [i, 0];
    count += words(m.text).length;
    if (count > best.words) best = { from, to: i, words: count };
  });
  const first = memories[best.from];
  if (!first || best.to < 0) return [];
  const text: string[] = [];
  for (let i = best.from; i <= best.to && text.length <= EXAMPLE_WORDS; i++) text.push(...(memories[i]?.text.split(/\s+/) ?? []));
  return [{ ...ref(first), text: text.length > EXAMPLE_WORDS ? `${text.slice(0, EXAMPLE_WORDS).join(' ')}…` : text.join(' ') }];
}

/**
 * The markers of one snapshot: its turns (for talkativeness) and the person's sentences (for the
 * rest), with each sentence's sentiment when the caller has read it already (the profile does).
 */
export function tallyMarkers(turns: readonly TranscriptTurn[], memories: readonly Memory[], sentiments?: readonly number[]): SnapshotMarkers {
  const tokens = memories.map((m) => words(m.text));
  const all = tokens.flat();
  const certain = tokens.map((t) => phraseCount(t, CERTAINTY_SET));
  const hedged = tokens.map((t) => phraseCount(t, HEDGE_SET));
  const singular = tokens.map((t) => t.filter((w) => SINGULAR.has(w)).length);
  const plural = tokens.map((t) => t.filter((w) => PLURAL.has(w)).length);
  const sentiment = memories.map((m, i) => sentiments?.[i] ?? sentimentOf(m.text));
  const questions = memories.map((m) => (m.text.includes('?') ? 1 : 0));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const personTurns = turns.filter((t) => t.isPerson);
  const turnWords = (ts: readonly TranscriptTurn[]) => ts.reduce((n, t) => n + words(t.text).length, 0);
  return {
    version: 1,
    markers: [
      {
        key: 'certainty',
        counts: { certainty: sum(certain), hedges: sum(hedged), words: all.length },
        examples: distinct([...top(memories, (_, i) => certain[i] ?? 0, 2), ...top(memories, (_, i) => hedged[i] ?? 0, 2)]).map(ref),
      },
      {
        key: 'sentiment',
        counts: { sum: round(sum(sentiment)), sentences: memories.length, positive: sentiment.filter((s) => s >= SENTENCE_POLARITY).length, negative: sentiment.filter((s) => s <= -SENTENCE_POLARITY).length, words: all.length },
        examples: distinct([...top(memories, (_, i) => sentiment[i] ?? 0, 2), ...top(memories, (_, i) => -(sentiment[i] ?? 0), 1)]).map(ref),
      },
      {
        key: 'first_person_focus',
        counts: { singular: sum(singular), plural: sum(plural), words: all.length },
        examples: distinct([...top(memories, (_, i) => singular[i] ?? 0, 2), ...top(memories, (_, i) => plural[i] ?? 0, 1)]).map(ref),
      },
      {
        key: 'question_rate',
        counts: { questions: sum(questions), sentences: memories.length, words: all.length },
        examples: top(memories, (_, i) => questions[i] ?? 0, EXAMPLES).map(ref),
      },
      {
        key: 'talkativeness',
        counts: { personWords: turnWords(personTurns), allWords: turnWords(turns), personTurns: personTurns.length, turns: turns.length },
        examples: longestAnswer(memories),
      },
    ],
  };
}

const LABELS: Record<MarkerKey, { label: string; scale: string; method: string }> = {
  certainty: {
    label: 'Certainty vs hedging',
    scale: '0 = only hedges, 1 = only certainty markers; null when neither occurs',
    method: `Counts of certainty markers (${CERTAINTY.join(', ')}) and hedges (${HEDGES.join(', ')}) in the person's own sentences; value = certainty / (certainty + hedges).`,
  },
  sentiment: {
    label: 'Sentiment',
    scale: '-1 (negative) to 1 (positive), 0 neutral',
    method: "Mean wink-nlp lexicon sentiment of the person's own sentences; positive and negative count the sentences at or beyond ±0.2.",
  },
  first_person_focus: {
    label: 'First-person focus (I vs we)',
    scale: '0 = only "we", 1 = only "I"; null when neither occurs',
    method: 'Counts of first-person singular words (I, me, my, mine, myself and contractions) and plural words (we, us, our, ours, ourselves and contractions) in the person\'s own sentences; value = singular / (singular + plural).',
  },
  question_rate: {
    label: 'Question rate',
    scale: "share of the person's sentences that are questions, 0 to 1",
    method: "Sentences of the person containing a question mark, divided by all of the person's sentences.",
  },
  talkativeness: {
    label: 'Talkativeness',
    scale: "the person's share of all words in the transcript, 0 to 1",
    method: "Words in the person's turns divided by the words of every turn; meanTurnWords is the person's words per turn. A transcript naming no speaker is all the person's (share 1).",
  },
};

function derive(key: MarkerKey, c: Record<string, number>): { value: number | null; words: number; details: Record<string, number> } {
  const n = (k: string) => c[k] ?? 0;
  switch (key) {
    case 'certainty':
      return { value: ratio(n('certainty'), n('hedges')), words: n('words'), details: { certainty: n('certainty'), hedges: n('hedges'), certaintyPer1000Words: per1000(n('certainty'), n('words')), hedgesPer1000Words: per1000(n('hedges'), n('words')) } };
    case 'sentiment':
      return { value: n('sentences') ? round(n('sum') / n('sentences')) : null, words: n('words'), details: { sentences: n('sentences'), positiveSentences: n('positive'), negativeSentences: n('negative') } };
    case 'first_person_focus':
      return { value: ratio(n('singular'), n('plural')), words: n('words'), details: { singular: n('singular'), plural: n('plural'), singularPer1000Words: per1000(n('singular'), n('words')), pluralPer1000Words: per1000(n('plural'), n('words')) } };
    case 'question_rate':
      return { value: n('sentences') ? round(n('questions') / n('sentences')) : null, words: n('words'), details: { questions: n('questions'), sentences: n('sentences') } };
    case 'talkativeness':
      return {
        value: n('allWords') ? round(n('personWords') / n('allWords')) : null,
        words: n('allWords'),
        details: { personWords: n('personWords'), allWords: n('allWords'), personTurns: n('personTurns'), turns: n('turns'), meanTurnWords: n('personTurns') ? round(n('personWords') / n('personTurns')) : 0 },
      };
  }
}

/** The markers over these snapshots' tallies: counts summed, values derived from the sums, examples taken from each snapshot in turn. */
export function measureMarkers(tallies: ReadonlyArray<{ snapshotId: string; markers: SnapshotMarkers }>): LinguisticMarker[] {
  const keys = Object.keys(LABELS) as MarkerKey[];
  return keys.flatMap((key) => {
    const parts = tallies.flatMap((t) => t.markers.markers.filter((m) => m.key === key).map((m) => ({ snapshotId: t.snapshotId, m })));
    if (parts.length === 0) return [];
    const counts: Record<string, number> = {};
    for (const { m } of parts) for (const [k, v] of Object.entries(m.counts)) counts[k] = (counts[k] ?? 0) + v;
    const examples: LinguisticMarker['examples'] = [];
    for (let i = 0; examples.length < EXAMPLES + 1 && parts.some((p) => p.m.examples[i]); i++) {
      for (const p of parts) {
        const e = p.m.examples[i];
        if (e && examples.length < EXAMPLES + 1) examples.push({ snapshotId: p.snapshotId, ...e });
      }
    }
    return [{ kind: 'linguistic_markers' as const, key, ...LABELS[key], ...derive(key, counts), examples }];
  });
}
