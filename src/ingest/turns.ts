/** Turn assembly for line-oriented sources (DOCX paragraphs, PDF text lines). */
import type { Utterance } from './transcript.ts';
import { mergeSpans, textSpan } from './spans.ts';
import { DEFAULT_ROLE_NAMES, looksLikeName, parseClock, roleLine, speakerPrefix, type Role } from './speakers.ts';

export interface SourceLine {
  text: string;
  /** True when the line begins a paragraph (every DOCX paragraph; a PDF line after a gap or a short line). */
  paragraphStart: boolean;
  page?: number;
  /** A format-specific turn header ("Dana Reyes  0:03") already recognised by the caller. */
  header?: { speaker: string; start?: number };
}

interface Draft {
  speaker: string | null;
  parts: string[];
  start?: number;
  page?: number;
  /** The time of the latest header of this turn (a speaker's turns in a row are one draft). */
  time?: number;
  /** Where each part was: its page and the time of the header above it. */
  places: Array<{ start?: number | undefined; page?: number | undefined }>;
}

/**
 * Group lines into speaker turns. A turn starts at a header line, a "Q:"/"A:" line or a "Name: text"
 * line, and continues (across paragraphs and pages) until the next one. Lines before any speaker are
 * speakerless paragraphs. "Name:" prefixes are trusted when the label recurs, or when it starts a
 * paragraph in a document that marks turns no other way; this keeps a wrapped PDF line or a Q/A
 * answer reading "Remote Work: ..." from becoming a speaker. "Q"/"A" become "Interviewer"/"Respondent" unless front matter
 * such as "Interviewer: Dana Reyes" names them.
 */
export function assembleTurns(lines: readonly SourceLine[]): Utterance[] {
  const prefixes = lines.map((line) => (line.header ? null : speakerPrefix(line.text)));
  const counts = new Map<string, number>();
  let firstQa = -1;
  let hasHeaders = false;
  prefixes.forEach((prefix, i) => {
    if (lines[i]?.header) hasHeaders = true;
    if (!prefix) return;
    if (prefix.role) {
      if (firstQa < 0) firstQa = i;
    } else {
      const key = prefix.speaker.toLowerCase();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  });

  const roleNames: Record<Role, string> = { ...DEFAULT_ROLE_NAMES };
  const frontMatter = new Set<number>();
  for (let i = 0; i < firstQa; i++) {
    const named = roleLine(lines[i]?.text ?? '');
    if (named) {
      roleNames[named.role] = named.name;
      frontMatter.add(i);
    }
  }
  // In documents whose turns are marked otherwise (timed headers, Q/A), a one-off "Label:" paragraph
  // is more likely a phrase ("Remote Work: ...") than a speaker.
  const otherConvention = hasHeaders || firstQa >= 0;

  const drafts: Draft[] = [];
  let current: Draft | null = null;
  const open = (speaker: string | null, page: number | undefined, start?: number): Draft => {
    const last = drafts.at(-1);
    if (speaker !== null && last && last.speaker === speaker) {
      if (start !== undefined) last.time = start; // same speaker again: one turn, its words from here at this time
      return last;
    }
    const draft: Draft = { speaker, parts: [], places: [] };
    if (page !== undefined) draft.page = page;
    if (start !== undefined) draft.start = draft.time = start;
    drafts.push(draft);
    return draft;
  };

  for (const [i, line] of lines.entries()) {
    if (frontMatter.has(i)) continue;
    const prefix = prefixes[i];
    let text = line.text;
    if (line.header) {
      current = open(line.header.speaker, line.page, line.header.start);
    } else if (prefix?.role) {
      current = open(roleNames[prefix.role], line.page);
      text = prefix.rest;
    } else if (
      prefix &&
      ((counts.get(prefix.speaker.toLowerCase()) ?? 0) >= 2 || (line.paragraphStart && !otherConvention))
    ) {
      current = open(prefix.speaker, line.page);
      text = prefix.rest;
    } else if (!current || (current.speaker === null && line.paragraphStart)) {
      current = open(null, line.page);
    }
    if (text.trim()) {
      current.parts.push(text.trim());
      current.places.push({ start: current.time, page: line.page });
    }
  }

  const out: Utterance[] = [];
  for (const draft of drafts) {
    const { text, at } = joinLines(draft.parts);
    if (!text) continue;
    const utterance: Utterance = { speaker: draft.speaker, text };
    if (draft.start !== undefined) utterance.start = draft.start;
    if (draft.page !== undefined) utterance.page = draft.page;
    const spans = mergeSpans(draft.places.map((place, i) => textSpan(at[i] ?? 0, place)), utterance);
    if (spans) utterance.spans = spans;
    out.push(utterance);
  }
  return out;
}

/**
 * Join wrapped lines with spaces, except after a line-end hyphen inside a word ("self-" + "employed");
 * `at`: the offset in the text where each part begins.
 */
export function joinLines(parts: readonly string[]): { text: string; at: number[] } {
  let text = '';
  let previous = '';
  const at: number[] = [];
  for (const part of parts) {
    // Test the previous part, not the growing text: a `$`-anchored regex would rescan it every time.
    if (text && !(previous.endsWith('-') && /\p{L}-$/u.test(previous.slice(-2)) && /^\p{Ll}/u.test(part))) text += ' ';
    at.push(text.length);
    text += part;
    previous = part;
  }
  return { text, at };
}

const CLOCK = String.raw`\d{1,3}(?::\d{2}){1,2}(?:[.,]\d{1,3})?`;
/** "Dana Reyes  00:01:07" (Otter, Teams): name, two or more spaces or a tab, the time; text may follow. */
const SPACED_HEADER = new RegExp(String.raw`^(\S.{0,59}?)(?: {2,}|\t)\s*(${CLOCK})(?=\s|$)`);
/** "Dana Reyes (00:01:07):" or "Dana Reyes [01:07]" (Rev, Temi); text may follow. */
const BRACKET_HEADER = new RegExp(String.raw`^(\S.{0,59}?)\s*[([](${CLOCK})[)\]]\s*:?(?=\s|$)`);
/** "Dana Reyes 0:03" as the whole line (PDF text loses the double space). */
const BARE_HEADER = new RegExp(String.raw`^(\S.{0,59}?)\s+(${CLOCK})\s*$`);

export interface TimedHeader {
  header: { speaker: string; start: number };
  /** Whatever follows the header on the same line. */
  text: string;
}

/** A transcription-tool turn header at the start of a paragraph/line, or null. */
export function timedHeader(text: string): TimedHeader | null {
  // Headers are short: match on the head only, which also bounds the regex work on huge paragraphs.
  const head = text.slice(0, 100);
  for (const pattern of [SPACED_HEADER, BRACKET_HEADER, BARE_HEADER]) {
    if (pattern === BARE_HEADER && head.length !== text.length) break;
    const m = pattern.exec(head);
    const speaker = m?.[1]?.trim();
    const start = parseClock(m?.[2] ?? '');
    if (m && speaker && start !== null && looksLikeName(speaker)) {
      return { header: { speaker, start }, text: text.slice(m[0].length) };
    }
  }
  return null;
}
