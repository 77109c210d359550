/**
 * Bounded work for every file: what a transcript may hold, and the gate every parser passes its text
 * through. The limits keep one file's analysis within a few seconds however it is shaped (issue 12):
 * the memory bank, profile and self-check cost about 20 µs per word, and wink-nlp's tokeniser and
 * stemmer are quadratic in the length of a single token, so tokens are kept short and the total is capped.
 */
import { IngestError, type TranscriptFormat } from './transcript.ts';

/** Words and punctuation marks one file may hold (about 130,000 words of ordinary prose, ~20 hours of speech). */
export const MAX_TRANSCRIPT_TOKENS = 150_000;
/** Longer runs of characters without a space are cut into pieces this long (wink-nlp is quadratic in a token's length). */
export const MAX_WORD_CHARS = 64;
/** Longer runs without a space or punctuation mark are not words (a base64 blob, a keyboard held down): skipped. */
export const MAX_RUN_CHARS = 1000;
/** Speaker turns one file may hold (each costs ~0.1 ms on top of its words; a 20-hour interview has ~5,000). */
export const MAX_TURNS = 20_000;
/** Longest speaker label kept. */
export const MAX_SPEAKER_CHARS = 100;

export const FORMAT_NAMES: Record<TranscriptFormat, string> = { vtt: 'VTT', docx: 'DOCX', pdf: 'PDF' };

const fmt = (n: number) => n.toLocaleString('en-US');

/** The error for a file with more of something (cues, paragraphs, pages, words) than one snapshot may hold. */
export function tooLong(format: TranscriptFormat, what: string): IngestError {
  return new IngestError(
    'transcript_too_long',
    `The ${FORMAT_NAMES[format]} file is too long for one snapshot: it holds more than ${what}. ` +
      'Split it into several files; a mind can hold many snapshots.',
  );
}

// Control characters other than tab and line breaks (NUL included: PostgreSQL refuses it in text).
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// `\S{n}\S*`, not `\S{n,}`: V8 runs out of backtracking stack on the latter over a run of millions of characters.
const LONG_RUN = new RegExp(`\\S{${MAX_WORD_CHARS + 1}}\\S*`, 'g');
const HAS_LONG_RUN = new RegExp(`\\S{${MAX_WORD_CHARS + 1}}`);
// A run of punctuation or symbols followed by something else: "word,word" → "word, word".
const AFTER_PUNCTUATION = /([\p{P}\p{S}]+)(?=[^\s\p{P}\p{S}])/gu;
// What wink-nlp makes tokens of, roughly: runs of letters, digits and marks, and each other non-space character.
const TOKEN = /[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;
// Combining marks, the zero-width joiner and variation selectors: they belong with the character before.
const JOINER = /\p{M}|\u200d|\ufe0e|\ufe0f/u;

/**
 * Counts the tokens of everything a parser reads and keeps each piece of text readable; throws
 * transcript_too_long as soon as the file holds more than MAX_TRANSCRIPT_TOKENS, so a huge file costs
 * no more than its first part. One gate per file.
 */
export class TextGate {
  tokens = 0;
  /** Runs skipped because they were too long to be words, and the longest of them. */
  skippedRuns = 0;
  longestSkipped = 0;

  readonly format: TranscriptFormat;
  private readonly maxTokens: number;
  constructor(format: TranscriptFormat, maxTokens = MAX_TRANSCRIPT_TOKENS) {
    this.format = format;
    this.maxTokens = maxTokens;
  }

  /** The readable form of a piece of text (see readable()), counted against the file's budget. */
  pass(text: string): string {
    const out = this.readable(text);
    this.count(out);
    return out;
  }

  /** False for a gate without a budget (a parser called directly): then no limit of the file applies. */
  get bounded(): boolean {
    return Number.isFinite(this.maxTokens);
  }

  /** What is left of the budget. */
  get remaining(): number {
    return this.maxTokens - this.tokens;
  }

  /** Adds what another gate counted for this file (the PDF thread's). */
  absorb(counted: { tokens: number; skippedRuns: number; longestSkipped: number }): void {
    this.tokens += counted.tokens;
    this.skippedRuns += counted.skippedRuns;
    this.longestSkipped = Math.max(this.longestSkipped, counted.longestSkipped);
  }

  /** Counts a piece of text against the file's budget; throws transcript_too_long past it. */
  count(text: string): void {
    TOKEN.lastIndex = 0;
    const budget = this.maxTokens - this.tokens;
    let n = 0;
    while (TOKEN.exec(text) !== null) {
      if (++n > budget) throw tooLong(this.format, `about ${fmt(this.maxTokens)} words and punctuation marks`);
    }
    this.tokens += n;
  }

  /**
   * Control characters removed; runs longer than MAX_WORD_CHARS broken after their punctuation, then
   * cut into MAX_WORD_CHARS pieces (at a character boundary, combining marks kept with their letter),
   * or skipped when longer than MAX_RUN_CHARS.
   */
  readable(text: string): string {
    const clean = text.replace(CONTROL, '');
    if (!HAS_LONG_RUN.test(clean)) return clean;
    return clean.replace(LONG_RUN, (run) => {
      const pieces: string[] = [];
      for (const part of run.replace(AFTER_PUNCTUATION, '$1 ').split(' ')) {
        if (part.length <= MAX_WORD_CHARS) pieces.push(part);
        else if (part.length <= MAX_RUN_CHARS) pieces.push(...cut(part));
        else {
          this.skippedRuns++;
          this.longestSkipped = Math.max(this.longestSkipped, part.length);
        }
      }
      return pieces.join(' ');
    });
  }

  /** Why a file without any text has none: its only text was runs too long to be words, or nothing at all. */
  emptyError(): IngestError {
    const name = FORMAT_NAMES[this.format];
    if (this.skippedRuns > 0) {
      return new IngestError(
        'transcript_unreadable',
        `The ${name} file has no readable words: its text is ${this.skippedRuns === 1 ? 'a run' : 'runs'} of up to ` +
          `${fmt(this.longestSkipped)} characters without a space or punctuation mark, which are not words.`,
      );
    }
    return new IngestError('empty_transcript', `The ${name} file contains no transcript text.`);
  }
}

/** Pieces of at most MAX_WORD_CHARS code units, never starting with a combining mark or joiner when avoidable. */
function cut(run: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  while (from < run.length) {
    let to = Math.min(run.length, from + MAX_WORD_CHARS);
    if (to < run.length) {
      let back = to;
      while (back > from + 1 && (JOINER.test(run[back] ?? '') || isLowSurrogate(run.charCodeAt(back)))) back--;
      if (back > from + 1) to = back;
      else if (isLowSurrogate(run.charCodeAt(to))) to--;
    }
    pieces.push(run.slice(from, to));
    from = to;
  }
  return pieces;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
