/**
 * The pieces an utterance was merged from (`Utterance.spans`): made by the parsers as they join cues,
 * paragraphs and lines, kept through the whitespace clean-up, read when sentences become memories.
 */
import type { TextSpan } from './transcript.ts';

/** A span at `at` with the fields that are defined (no keys holding undefined). */
export function textSpan(at: number, where: { start?: number | undefined; end?: number | undefined; page?: number | undefined }): TextSpan {
  const span: TextSpan = { at };
  if (where.start !== undefined) span.start = where.start;
  if (where.end !== undefined) span.end = where.end;
  if (where.page !== undefined) span.page = where.page;
  return span;
}

const samePlace = (a: TextSpan, b: TextSpan) => a.start === b.start && a.end === b.end && a.page === b.page;

/**
 * Consecutive pieces from one place (the lines of one cue, the paragraphs of one page) made one span;
 * undefined when the utterance's own fields (`whole`: its start, end and page) say where all of it was.
 */
export function mergeSpans(pieces: readonly TextSpan[], whole: Omit<TextSpan, 'at'>): TextSpan[] | undefined {
  const out: TextSpan[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (!last || !samePlace(last, piece)) out.push(piece);
  }
  const only = out.length === 1 ? out[0] : undefined;
  return out.length === 0 || (only && samePlace(only, { at: 0, ...whole })) ? undefined : out;
}

/** The span holding the character at `offset` (the last one starting at or before it). */
export function spanAt(spans: readonly TextSpan[], offset: number): TextSpan | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((spans[mid]?.at ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return spans[lo];
}

/** What collapseWhitespace (speakers.ts) removes outright, and what it turns (in runs) into one space. */
const DROPPED = /[\u200b\u200e\u200f\u2060\ufeff]/;
const SPACE = /[\s\p{Cc}]/u;

/**
 * The spans of an utterance's `text` moved into `collapsed`, which is collapseWhitespace(text): each `at`
 * goes where the first character kept at or after it went. Undefined as mergeSpans says, or (a
 * safeguard) when this walk does not arrive at the collapsed text's length.
 */
export function collapsedSpans(
  text: string,
  collapsed: string,
  spans: readonly TextSpan[],
  whole: Omit<TextSpan, 'at'>,
): TextSpan[] | undefined {
  if (text === collapsed) return [...spans]; // what the parsers already collapsed (every VTT)
  // landing[i]: where text[i] lands in `collapsed` when kept; -1 for dropped characters and spaces.
  const landing = new Int32Array(text.length + 1).fill(-1);
  let length = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (DROPPED.test(c)) continue;
    if (SPACE.test(c)) {
      space = true;
      continue;
    }
    if (space && length > 0) length++; // the one space a run of them became
    space = false;
    landing[i] = length++;
  }
  if (length !== collapsed.length) return undefined;
  landing[text.length] = length;
  for (let i = text.length - 1; i >= 0; i--) if ((landing[i] ?? -1) < 0) landing[i] = landing[i + 1] ?? length;
  const moved = spans.map((s, i) => textSpan(i === 0 ? 0 : (landing[Math.min(Math.max(s.at, 0), text.length)] ?? length), s));
  // A piece left with no characters is dropped: the next one starts where it did.
  const kept = moved.filter((s, i) => s.at < (moved[i + 1]?.at ?? length));
  return mergeSpans(kept.map((s, i) => (i === 0 ? { ...s, at: 0 } : s)), whole);
}
