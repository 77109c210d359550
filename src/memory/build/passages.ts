/**
 * Build stage: the passages of a memory bank, the unit the sentence encoder embeds and the search
 * ranks. A passage is a run of consecutive sentences of one answer (the person's sentences under one
 * question), about PASSAGE_WORDS long; an answer's short tail joins the passage before it. Pure and
 * deterministic: the same memories always give the same passages.
 */
import type { SentenceEncoder } from '../encoder/sentence-encoder.ts';
import { PASSAGE_TAIL_SHARE, PASSAGE_WORDS } from '../tuning.ts';
import type { Memory } from '../types.ts';
import { quantise, type QuantisedVectors } from '../vector-math.ts';

/** A passage as the seq numbers (inclusive) of its first and last sentence in its snapshot. */
export interface PassageSpan {
  first: number;
  last: number;
}

const wordsOf = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** True when `m` continues the answer of `prev` (the next sentence under the same question). */
export const continuesAnswer = (prev: Pick<Memory, 'seq' | 'question'> | undefined, m: Pick<Memory, 'seq' | 'question'>): boolean =>
  prev !== undefined && prev.question === m.question && prev.seq === m.seq - 1;

/** The passages of one snapshot's memories (any order in, seq order out). */
export function passageSpans(memories: readonly Memory[]): PassageSpan[] {
  const sorted = [...memories].sort((a, b) => a.seq - b.seq);
  const spans: PassageSpan[] = [];
  let open: { span: PassageSpan; words: number; answerStart: number } | null = null;
  const tail = PASSAGE_WORDS * PASSAGE_TAIL_SHARE;
  sorted.forEach((m, i) => {
    const words = wordsOf(m.text);
    const sameAnswer = continuesAnswer(sorted[i - 1], m);
    if (open && sameAnswer && open.words < PASSAGE_WORDS) {
      open.span.last = m.seq;
      open.words += words;
      return;
    }
    if (open && !sameAnswer) mergeShortTail(spans, open, tail);
    const answerStart: number = sameAnswer && open ? open.answerStart : spans.length;
    open = { span: { first: m.seq, last: m.seq }, words, answerStart };
    spans.push(open.span);
  });
  if (open) mergeShortTail(spans, open, tail);
  return spans;
}

/** An answer's last passage, when short, joins the one before it in the same answer. */
function mergeShortTail(spans: PassageSpan[], open: { span: PassageSpan; words: number; answerStart: number }, tail: number): void {
  const at = spans.length - 1;
  if (open.words >= tail || at <= open.answerStart) return;
  const before = spans[at - 1];
  if (before) {
    before.last = open.span.last;
    spans.pop();
  }
}

/** The text the encoder embeds for a span: its sentences joined. */
function passageText(bySeq: ReadonlyMap<number, Pick<Memory, 'text'>>, span: PassageSpan): string {
  const parts: string[] = [];
  for (let s = span.first; s <= span.last; s++) parts.push(bySeq.get(s)?.text ?? '');
  return parts.join(' ');
}

/** The passages of one snapshot's memories, and the text of each that the encoder embeds (in the same order). */
export function passagesOf(memories: readonly Memory[]): { spans: PassageSpan[]; texts: string[] } {
  const bySeq = new Map(memories.map((m) => [m.seq, m]));
  const spans = passageSpans(memories);
  return { spans, texts: spans.map((span) => passageText(bySeq, span)) };
}

/** Texts' vectors in their stored (int8) form, in order, and the model that made them. */
export interface EmbeddedTexts {
  encoder: string;
  vectors: QuantisedVectors;
}

/** The encoder's vectors of some texts (a snapshot's passages), quantised as they are stored. */
export async function embedForStorage(encoder: SentenceEncoder, texts: readonly string[]): Promise<EmbeddedTexts> {
  return { encoder: encoder.id, vectors: quantise(await encoder.embed(texts), encoder.dimensions) };
}
