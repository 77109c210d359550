/**
 * Answer stage: the person's sentences an answer's fields may quote, each with what it says (its
 * readings) and how near it is to the scenario: the rank of the best passage holding it in the
 * learned ranking, and the scenario's words it says.
 */
import type { MindMemory } from '../mind-memory.ts';
import type { SearchResult } from '../search/search.ts';
import { isFiller, sentimentOf, terms } from '../sentences.ts';
import { deedOf, isGreeting, isQuestion, reasonOf, type Deed, type Reason } from '../text/readings.ts';
import { QUOTE_MIN_TERMS } from '../tuning.ts';
import { sentenceParts, sentenceText, spokenSentences } from './spoken-sentences.ts';

export interface Candidate {
  /** The docs of the spoken sentence it is (or is a part of), in order. */
  docs: number[];
  /** Which of that spoken sentence's own sentences it is (sentenceParts); 0 for the first or only one. */
  part: number;
  /** How many own sentences that spoken sentence holds. */
  parts: number;
  text: string;
  /** Position in the ranking of the best passage that holds it (0 = the best passage). */
  rank: number;
  /**
   * That passage's probability relative to the best passage's under the ranking, exp(score − best):
   * the ranking is fitted with a softmax over a person's passages (search/rank.ts), as
   * question-passages.ts weighs sentences.
   */
  odds: number;
  /** How many of the scenario's content words (stems) it says. */
  overlap: number;
  stems: Set<string>;
  /** The reason it gives, if any (text/readings.ts). */
  reason: Reason;
  deed: Deed;
  /** Mean sentiment of its docs, each as the mind reads it once. */
  sentiment: number;
  greeting: boolean;
  question: boolean;
}

/** The content stems of some docs, as the mind indexed them. */
export function stemsOf(mind: MindMemory, docs: readonly number[]): Set<string> {
  const out = new Set<string>();
  for (const d of docs) for (const t of mind.tokens[d] ?? []) out.add(t.stem);
  return out;
}

/**
 * A part of a spoken sentence read by wink-nlp (its stems and sentiment), remembered with the mind
 * (and gone with it): the same passages come back across scenarios, as MindMemory.reading remembers
 * whole sentences.
 */
const partReadings = new WeakMap<MindMemory, Map<string, { stems: Set<string>; sentiment: number }>>();
function partReading(mind: MindMemory, key: string, text: string): { stems: Set<string>; sentiment: number } {
  let readings = partReadings.get(mind);
  if (!readings) partReadings.set(mind, (readings = new Map()));
  let read = readings.get(key);
  if (!read) readings.set(key, (read = { stems: new Set(terms(text)), sentiment: sentimentOf(text) }));
  return read;
}

/** For each doc of `docs`, the position in the ranking of the best passage holding it, and that passage's score. */
function ranksOf(found: SearchResult, docs: ReadonlySet<number>): Map<number, { rank: number; score: number }> {
  const rank = new Map<number, { rank: number; score: number }>();
  const passages = found.ranking.passages;
  for (let k = 0; k < passages.length && rank.size < docs.size; k++) {
    const p = passages[k];
    if (!p) continue;
    for (let d = p.first; d <= p.last; d++) if (docs.has(d) && !rank.has(d)) rank.set(d, { rank: k, score: p.score });
  }
  return rank;
}

/** The sentences of `docs` as candidates (each part of a spoken sentence: sentenceParts), best ranked first (then the most of the scenario's words, then in order). */
export function candidatesOf(mind: MindMemory, found: SearchResult, docs: readonly number[]): Candidate[] {
  const sorted = [...new Set(docs)].sort((a, b) => a - b);
  const rank = ranksOf(found, new Set(sorted));
  const asked = new Set([...found.query.askStems, ...found.query.contextStems]);
  const top = found.ranking.passages[0]?.score ?? 0;
  return spokenSentences(mind, sorted)
    .flatMap((unit) => {
      const parts = sentenceParts(sentenceText(mind, unit));
      const unitRank = Math.min(...unit.map((d) => rank.get(d)?.rank ?? Infinity));
      const unitScore = Math.max(...unit.map((d) => rank.get(d)?.score ?? -Infinity));
      return parts.map((text, part) => {
        // A sentence of its own is read as the mind read it, once; a part of one is read here.
        const whole = parts.length === 1;
        const own = whole ? null : partReading(mind, `${unit[0] ?? -1}:${part}`, text);
        const stems = own ? own.stems : stemsOf(mind, unit);
        const sentiment = own ? own.sentiment : unit.reduce((sum, d) => sum + mind.reading(d).sentiment, 0) / unit.length;
        return {
          docs: unit,
          part,
          parts: parts.length,
          text,
          rank: unitRank,
          odds: Math.exp(unitScore - top),
          overlap: [...stems].filter((s) => asked.has(s)).length,
          stems,
          reason: reasonOf(text),
          deed: deedOf(text),
          sentiment,
          greeting: isGreeting(text),
          question: isQuestion(text),
        };
      });
    })
    .filter((c) => !isFiller(c.text) && c.stems.size >= QUOTE_MIN_TERMS)
    .sort((a, b) => a.rank - b.rank || b.overlap - a.overlap || (a.docs[0] ?? 0) - (b.docs[0] ?? 0) || a.part - b.part);
}

/** |A ∩ B| / min(|A|, |B|): the share of the smaller set's stems the other holds (0 when either is empty). */
export function sharedShare(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let both = 0;
  for (const s of small) if (large.has(s)) both++;
  return both / small.size;
}
