/**
 * Answer stage: the person's sentences as they spoke them. A memory is a sentence, but a long
 * unpunctuated one is cut into pieces (sentences.ts, at a comma where it can): an answer quotes such
 * a sentence whole, from its first piece to its last, never stopping at "a couple more hours,".
 */
import type { MindMemory } from '../mind-memory.ts';
import { endsSentence } from '../text/readings.ts';
import { SAYING_MAX_WORDS } from '../tuning.ts';

const ends = (mind: MindMemory, doc: number): boolean => endsSentence(mind.memories[doc]?.text ?? '.');

/**
 * A contiguous run of docs grown to whole sentences within its answer: back while the doc before it
 * does not end a sentence, on while its last doc does not. A sentence longer than SAYING_MAX_WORDS is
 * unpunctuated text (captions without punctuation): it is not grown beyond that.
 */
export function wholeSentences(mind: MindMemory, docs: readonly number[]): number[] {
  let first = docs[0];
  let last = docs[docs.length - 1];
  if (first === undefined || last === undefined) return [];
  const answerFirst = mind.answerFirst[first] ?? first;
  const answerLast = mind.answerLast[last] ?? last;
  let grown = 0;
  while (first > answerFirst && !ends(mind, first - 1) && grown < SAYING_MAX_WORDS) grown += mind.words[--first] ?? 0;
  grown = 0;
  while (last < answerLast && !ends(mind, last) && grown < SAYING_MAX_WORDS) grown += mind.words[++last] ?? 0;
  return Array.from({ length: last - first + 1 }, (_, i) => (first as number) + i);
}

/** Docs (in order) grouped into the sentences they form: a group ends at a doc that ends a sentence or before a gap. */
export function spokenSentences(mind: MindMemory, docs: readonly number[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  for (const d of docs) {
    const prev = current[current.length - 1];
    if (prev !== undefined && (d !== prev + 1 || ends(mind, prev))) {
      out.push(current);
      current = [];
    }
    current.push(d);
  }
  if (current.length) out.push(current);
  return out;
}

/** A spoken sentence's text: its pieces joined as they were said. */
export const sentenceText = (mind: MindMemory, docs: readonly number[]): string => docs.map((d) => mind.memories[d]?.text ?? '').join(' ');

/**
 * A spoken sentence's own sentences where the splitter kept them together: wink-nlp does not end a
 * sentence at "..." or at a "?" or "!" before a capital, so a memory can hold several ("I think that
 * was a level one... And it's funny, because…"). A field quotes the one that says what it needs.
 */
export function sentenceParts(text: string): string[] {
  return text
    .split(/(?<=\.\.\.|…|[?!])\s+(?=["“]?[A-Z])/)
    .map((t) => t.trim())
    .filter(Boolean);
}
