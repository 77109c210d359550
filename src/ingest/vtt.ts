/**
 * WebVTT → speaker turns. Lenient where real exports are sloppy (missing blank lines, "," decimal
 * marks, missing hours, unclosed voice tags), linear in the input size.
 */
import type { TextSpan, Utterance } from './transcript.ts';
import { TextGate, tooLong } from './limits.ts';
import { mergeSpans, textSpan } from './spans.ts';
import { collapseWhitespace, looksLikeName, parenSpeaker, parseClock } from './speakers.ts';

/** Speakerless cues are merged into paragraphs: until a pause this long (seconds)... */
const MONOLOGUE_PAUSE = 2.5;
/** ...or until the paragraph has this many words and ends a sentence (hard limit: 3×). */
const MONOLOGUE_WORDS = 120;
/** ...and never past this many characters (text without spaces has few "words"). */
const MONOLOGUE_CHARS = 4000;
/** Cues one file may hold (a cue is ~1–5 s of speech: 100,000 cues is days of captions). */
export const MAX_VTT_CUES = 100_000;
/** Zoom-style labels are learnt from the first cues (enough to see who speaks). */
const LABEL_SAMPLE_CUES = 5000;

/** @param gate counts the text against the file's budget (unlimited by default, for direct calls). */
export function parseVtt(text: string, gate = new TextGate('vtt', Infinity)): Utterance[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[0] !== undefined) lines[0] = lines[0].replace(/^\uFEFF/, '');
  const turns = new TurnBuilder(gate);
  const speakers = new SpeakerState(zoomLabels(lines));
  let i = 0;
  if (lines[0]?.startsWith('WEBVTT')) {
    i = 1; // header text runs to the first blank line (or, in sloppy files, to the first timing line)
    while (i < lines.length && !isBlank(lines[i]) && !lines[i]?.includes('-->')) i++;
  }
  while (i < lines.length) {
    while (i < lines.length && isBlank(lines[i])) i++;
    const blockStart = i;
    while (i < lines.length && !isBlank(lines[i])) i++;
    if (blockStart < i) readBlock(lines, blockStart, i, speakers, turns);
  }
  return turns.finish();
}

function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

function readBlock(lines: string[], from: number, to: number, speakers: SpeakerState, turns: TurnBuilder): void {
  const first = lines[from] ?? '';
  if (/^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first)) return;
  let k = from;
  while (k < to) {
    // A cue: optional identifier line, then the timing line, then payload up to the next timing line.
    let timing = parseTiming(lines[k] ?? '');
    if (!timing && k + 1 < to) {
      timing = parseTiming(lines[k + 1] ?? '');
      if (timing) k++;
    }
    if (!timing) {
      // Not a cue. A lone "(Name)" block names the speaker of the cues that follow; anything else is skipped.
      if (to - from === 1) {
        const name = parenSpeaker(first);
        if (name) speakers.sticky(name);
      }
      return;
    }
    k++;
    const payloadStart = k;
    while (k < to && !parseTiming(lines[k] ?? '')) k++;
    // Cues not separated by a blank line: an id-like line just before the next timing line is its identifier.
    const payloadEnd = k < to && k - 1 >= payloadStart && CUE_ID.test(lines[k - 1] ?? '') ? k - 1 : k;
    readCue(lines.slice(payloadStart, payloadEnd), timing, speakers, turns);
    if (++turns.cues > MAX_VTT_CUES && turns.gate.bounded) throw tooLong('vtt', `${MAX_VTT_CUES.toLocaleString('en-US')} cues`);
    if (payloadEnd < k) k--;
  }
}

interface Timing {
  start: number;
  end: number;
}

/** Zoom numbers cues ("12"), Teams uses GUID-ish ids ("6a1c0e3b-.../17-0"). */
const CUE_ID = /^\s*(?=[\w/-]*\d)[\w/-]+\s*$/;
const TIMING = /^\s*(\S+)\s+-->\s+(\S+)/;

function parseTiming(line: string): Timing | null {
  if (!line.includes('-->')) return null;
  const m = TIMING.exec(line);
  if (!m) return null;
  const start = parseClock(m[1] ?? '');
  const end = parseClock(m[2] ?? '');
  return start === null || end === null ? null : { start, end };
}

/** Who is speaking: voice tags and "Name:" prefixes name a cue's speaker; "(Name)" lines persist. */
class SpeakerState {
  current: string | null = null;
  /** Names seen as "Name:" at the start of a cue; only these are trusted later inside a cue. */
  readonly known = new Set<string>();
  /** @param recurring labels a Zoom-style file uses on its cues, accepted even when not name-shaped. */
  readonly recurring: ReadonlySet<string>;
  constructor(recurring: ReadonlySet<string>) {
    this.recurring = recurring;
  }
  sticky(name: string): void {
    this.current = collapseWhitespace(name);
  }
}

// Character classes exclude '<' so a hostile run of unclosed tags can't make matching quadratic.
const VOICE = /<v(?:\.[^\s<>]*)?(?:[ \t]+([^<>]*))?>/g;
const TAG = /<\/?(?:[a-zA-Z][^<>]*|\d[\d:.]*)>/g;

function readCue(payload: string[], timing: Timing, speakers: SpeakerState, turns: TurnBuilder): void {
  payload.forEach((line, lineIndex) => {
    const paren = parenSpeaker(stripTags(line));
    if (paren) {
      speakers.sticky(paren);
      return;
    }
    // Split the line at voice tags: "<v Dana>Hi</v> <v Sam>Hello" is two pieces with two speakers.
    VOICE.lastIndex = 0;
    let at = 0;
    let voice: string | undefined;
    for (let m = VOICE.exec(line); m; m = VOICE.exec(line)) {
      addPiece(line.slice(at, m.index), voice, lineIndex === 0 && at === 0, timing, speakers, turns);
      voice = collapseWhitespace(decodeEntities(m[1] ?? '')) || undefined;
      at = m.index + m[0].length;
    }
    addPiece(line.slice(at), voice, lineIndex === 0 && at === 0, timing, speakers, turns);
  });
}

function addPiece(
  raw: string,
  voice: string | undefined,
  cueStart: boolean,
  timing: Timing,
  speakers: SpeakerState,
  turns: TurnBuilder,
): void {
  if (voice) speakers.current = voice;
  let text = collapseWhitespace(turns.gate.pass(decodeEntities(stripTags(raw))));
  if (!text) return;
  if (!voice) {
    // Zoom: "Full Name: text". Trusted at the start of a cue, or later in a cue for an already-seen name.
    const m = ZOOM_PREFIX.exec(text);
    const name = m?.[1];
    const nameLike = name !== undefined && (speakers.recurring.has(name) || looksLikeName(name));
    if (m && name && nameLike && (cueStart || speakers.known.has(name))) {
      speakers.known.add(name);
      speakers.current = name;
      text = text.slice(m[0].length);
    }
  }
  turns.add(speakers.current, text, timing);
}

const ZOOM_PREFIX = /^([^:]{1,60}?)\s*:(?:\s+|$)/;

/**
 * Zoom display names are often not name-shaped ("sam.okafor", "iPad de Dana", "dana r"). When most
 * cues open with "Label: ", labels that recur on cue openings are speakers whatever their shape.
 */
function zoomLabels(lines: readonly string[]): Set<string> {
  const counts = new Map<string, number>();
  let cues = 0;
  let labelled = 0;
  for (let i = 0; i + 1 < lines.length && cues < LABEL_SAMPLE_CUES; i++) {
    if (!lines[i]?.includes('-->')) continue;
    cues++;
    const label = ZOOM_PREFIX.exec(collapseWhitespace(decodeEntities(stripTags(lines[i + 1] ?? ''))))?.[1];
    if (!label || /[?!]|^[\d\s]+$/.test(label)) continue;
    labelled++;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const trusted = new Set<string>();
  if (labelled * 2 >= cues) for (const [label, n] of counts) if (n >= 2) trusted.add(label);
  return trusted;
}

function stripTags(text: string): string {
  return text.includes('<') ? text.replace(TAG, '') : text;
}

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '', shy: '', ensp: ' ', emsp: ' ',
  thinsp: ' ', hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', copy: '©', reg: '®', trade: '™', deg: '°', euro: '€', pound: '£', cent: '¢', yen: '¥', eacute: 'é',
};

/** Decode the HTML character references that appear in caption text (named subset + all numeric ones). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g, (whole, dec, hex, name) => {
    if (name !== undefined) return ENTITIES[String(name).toLowerCase()] ?? whole;
    const code = dec !== undefined ? Number.parseInt(String(dec), 10) : Number.parseInt(String(hex), 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
  });
}

interface Draft {
  speaker: string | null;
  parts: string[];
  start: number;
  end: number;
  words: number;
  chars: number;
  /** Each cue's piece of the joined text, with the cue's times. */
  spans: TextSpan[];
  /** Length of the joined text so far. */
  length: number;
}

/** Merges consecutive cues of one speaker into a turn; speakerless cues into paragraphs. */
class TurnBuilder {
  private readonly drafts: Draft[] = [];
  cues = 0;

  readonly gate: TextGate;
  constructor(gate: TextGate) {
    this.gate = gate;
  }

  add(speaker: string | null, text: string, timing: Timing): void {
    const last = this.drafts.at(-1);
    const words = countWords(text);
    if (last && last.speaker === speaker && (speaker !== null || continuesParagraph(last, timing))) {
      last.parts.push(text);
      last.end = Math.max(last.end, timing.end);
      last.words += words;
      last.chars += text.length;
      last.spans.push(textSpan(last.length + 1, timing));
      last.length += 1 + text.length;
      return;
    }
    const spans = [textSpan(0, timing)];
    this.drafts.push({ speaker, parts: [text], start: timing.start, end: timing.end, words, chars: text.length, spans, length: text.length });
  }

  finish(): Utterance[] {
    return this.drafts.map((d) => {
      const utterance: Utterance = { speaker: d.speaker, text: d.parts.join(' '), start: d.start, end: d.end };
      const spans = mergeSpans(d.spans, utterance);
      if (spans) utterance.spans = spans;
      return utterance;
    });
  }
}

function continuesParagraph(last: Draft, next: Timing): boolean {
  if (next.start - last.end >= MONOLOGUE_PAUSE) return false;
  if (last.words >= MONOLOGUE_WORDS * 3 || last.chars >= MONOLOGUE_CHARS) return false;
  if (last.words < MONOLOGUE_WORDS) return true;
  return !/[.!?…]["'”’)]*$/.test(last.parts.at(-1) ?? '');
}

function countWords(text: string): number {
  let n = 1;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) n++;
  return n;
}
