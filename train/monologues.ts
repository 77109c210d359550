/**
 * Short monologues made from dataset people, for the confidence's fit and its measurement: minds
 * come from talks and profile recordings with one speaker as well as from interviews, and such a
 * mind has a few passages and no interviewer's questions. A monologue here is a stretch of one
 * person's own sentences around one of their answers, MONOLOGUE_WORDS long, with the questions
 * removed, as the service reads a transcript with one speaker; its questions are the person's Q/A
 * pairs that lie wholly inside it.
 */
import { passagesOf } from '../src/memory/build/passages.ts';
import type { Person } from './dataset.ts';

/** A monologue's length in words is drawn from this range: a two- to five-minute talk or recording. */
export const MONOLOGUE_WORDS = { min: 250, max: 750 } as const;

const wordsOf = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** One short monologue of a person (null when they have no answer to centre one on). */
export function shortMonologue(person: Person, random: () => number): Person | null {
  if (person.examples.length === 0) return null;
  const centre = person.examples[Math.floor(random() * person.examples.length)] as Person['examples'][number];
  const target = MONOLOGUE_WORDS.min + Math.floor(random() * (MONOLOGUE_WORDS.max - MONOLOGUE_WORDS.min));
  const bySeq = [...person.memories].sort((a, b) => a.seq - b.seq);
  const firstAt = bySeq.findIndex((m) => m.seq === centre.first);
  if (firstAt < 0) return null;
  // The answer, then sentences before it (up to a third of the length) and after it, until the length is reached.
  let from = firstAt;
  let to = bySeq.findIndex((m) => m.seq === centre.last);
  if (to < 0) to = firstAt;
  let words = bySeq.slice(from, to + 1).reduce((s, m) => s + wordsOf(m.text), 0);
  const before = Math.floor((random() * target) / 3);
  let back = 0;
  while (from > 0 && back < before) back += wordsOf(bySeq[--from]?.text ?? '');
  words += back;
  while (to < bySeq.length - 1 && words < target) words += wordsOf(bySeq[++to]?.text ?? '');
  const memories = bySeq.slice(from, to + 1).map((m) => ({ ...m, question: null }));
  const lo = memories[0]?.seq ?? 0;
  const hi = memories[memories.length - 1]?.seq ?? -1;
  const { spans, texts } = passagesOf(memories);
  return {
    ...person,
    file: `${person.file}#monologue`,
    memories,
    spans,
    passages: texts,
    examples: person.examples.filter((e) => e.first >= lo && e.last <= hi),
    words,
  };
}
