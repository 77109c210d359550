/** Speaker-label heuristics shared by the VTT, DOCX and PDF parsers. */

/** Words that often start a line as "Word: ..." but are not people. Compared lower-cased. */
const NOT_SPEAKERS = new Set([
  'note', 'notes', 'nb', 'ps', 'p.s.', 'edit', 'update', 'warning', 'caution', 'tip', 'hint', 'example', 'e.g.',
  'i.e.', 'date', 'time', 'timestamp', 'location', 'place', 'venue', 'duration', 'length', 'title', 'topic', 're',
  'subject line', 'transcript', 'transcription', 'transcribed by', 'transcriber', 'recorded', 'recording',
  'recorded on', 'source', 'sources', 'summary', 'keywords', 'language', 'file', 'filename', 'audio', 'video',
  'project', 'agenda', 'attendees', 'participants', 'present', 'absent', 'important', 'reminder', 'fyi',
  'disclaimer', 'copyright', 'confidential', 'step', 'chapter', 'section', 'part', 'figure', 'table', 'so', 'well',
  'but', 'and', 'or', 'yes', 'no', 'okay', 'ok', 'also', 'then', 'now', 'first', 'second', 'third', 'finally',
  'however', 'therefore', 'anyway', 'basically', 'honestly', 'look', 'listen', 'remember', 'conclusion', 'result',
  'results', 'lesson', 'rule', 'goal', 'problem', 'solution', 'point', 'fact', 'truth', 'http', 'https', 'mailto',
  'url', 'email', 'phone', 'tel', 'fax', 'address', 'website', 'ref', 'reference', 'see', 'cf', 'q', 'a',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tomorrow', 'yesterday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december', 'morning', 'afternoon', 'evening', 'noon', 'midnight', 'tonight',
]);

/** Caption sound descriptions that look like "(Name)" lines but are not speakers. */
const SOUNDS = new Set([
  'music', 'applause', 'laughter', 'laughs', 'laughing', 'laugh', 'inaudible', 'crosstalk', 'silence', 'pause',
  'noise', 'cough', 'coughs', 'coughing', 'sigh', 'sighs', 'chuckle', 'chuckles', 'cheering', 'cheers', 'static',
  'beep', 'beeping', 'bleep', 'indistinct', 'unintelligible', 'foreign', 'sound', 'sounds', 'groans', 'gasps',
  'whispers', 'whispering', 'playing', 'background', 'overlapping', 'unclear', 'break', 'end', 'recording',
]);

const PARTICLES = new Set(['de', 'da', 'del', 'della', 'di', 'du', 'der', 'den', 'van', 'von', 'la', 'le', 'bin', 'al', 'el', 'y', 'ten', 'ter', 'dos', 'das']);

/** One word of a name: "Dana", "O'Brien", "Jean-Luc", "J.", "Dr.", "DANA", "McKay", or a number as in "Speaker 1". */
const NAME_WORD = /^(?:\p{Lu}[\p{L}\p{M}'’-]*\.?|\d{1,3}|#\d{1,3})$/u;
const HAS_CAPITAL = /\p{Lu}/u;

/**
 * True when `label` reads like a person's name or role label rather than the start of a sentence:
 * 1–5 capitalised words (name particles like "de"/"van" allowed), at most 40 characters, no sentence
 * punctuation, and not a common heading word ("Note", "Date", "So", ...).
 */
export function looksLikeName(label: string): boolean {
  const text = label.trim();
  if (text.length === 0 || text.length > 40 || !HAS_CAPITAL.test(text)) return false;
  const words = text.split(/\s+/);
  if (words.length > 5) return false;
  let capitalised = 0;
  for (const word of words) {
    if (PARTICLES.has(word)) continue;
    if (!NAME_WORD.test(word)) return false;
    if (HAS_CAPITAL.test(word)) capitalised++;
  }
  if (capitalised === 0) return false;
  const lower = text.toLowerCase();
  return !NOT_SPEAKERS.has(lower) && !(words.length === 1 && NOT_SPEAKERS.has(lower.replace(/\.$/, '')));
}

/** "(Dana Reyes)" on a line of its own names the speaker of what follows. Returns the name or null. */
export function parenSpeaker(line: string): string | null {
  const m = /^\s*\(([^()]{1,60})\)\s*$/.exec(line);
  const name = m?.[1]?.trim();
  if (!name || !looksLikeName(name)) return null;
  for (const word of name.toLowerCase().split(/\s+/)) if (SOUNDS.has(word)) return null;
  return name;
}

export type Role = 'q' | 'a';

export interface Prefix {
  /** The label as written ("Dana Reyes", "INTERVIEWER"); for Q/A labels the role decides the name later. */
  speaker: string;
  role?: Role;
  rest: string;
}

const PREFIX = /^\s*([^:]{1,41}?)\s*:(?:\s+|$)/;
const QA_PREFIX = /^\s*(Q|A|Question|Answer)\s*:\s*/i;

/** Split "Name: text" / "Q: text" into label and text, or null when the line has no speaker prefix. */
export function speakerPrefix(line: string): Prefix | null {
  const qa = QA_PREFIX.exec(line);
  if (qa) {
    const label = qa[1] ?? '';
    const role: Role = /^q/i.test(label) ? 'q' : 'a';
    return { speaker: label, role, rest: line.slice(qa[0].length) };
  }
  const m = PREFIX.exec(line);
  const label = m?.[1];
  if (!m || !label || !looksLikeName(label)) return null;
  return { speaker: label, rest: line.slice(m[0].length) };
}

const ROLE_LINE = /^\s*(interviewer|moderator|host|interviewee|respondent|participant|subject|guest|narrator)s?\s*:(.*)$/i;

/**
 * A front-matter line such as "Interviewer: Dana Reyes" or "Respondent: Sam Okafor" that tells who
 * Q and A are. Returns the role it names and the person, or null.
 */
export function roleLine(line: string): { role: Role; name: string } | null {
  if (line.length > 120) return null;
  const m = ROLE_LINE.exec(line);
  const key = m?.[1]?.toLowerCase();
  const name = m?.[2]?.trim();
  if (!key || !name || !looksLikeName(name)) return null;
  const role: Role = key === 'interviewer' || key === 'moderator' || key === 'host' ? 'q' : 'a';
  return { role, name };
}

export const DEFAULT_ROLE_NAMES: Readonly<Record<Role, string>> = { q: 'Interviewer', a: 'Respondent' };

/**
 * Collapse runs of whitespace (including NBSP) and trim; drop zero-width spaces, word joiners, BOMs and
 * direction marks. Zero-width (non-)joiners stay: they are part of emoji sequences (👩‍👩‍👧) and of
 * Persian and Indic words.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\u200b\u200e\u200f\u2060\ufeff]/g, '').replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** Seconds from "m:ss", "mm:ss", "h:mm:ss" (optionally with a ".mmm"/",mmm" fraction); null if malformed. */
export function parseClock(text: string): number | null {
  const m = /^(?:(\d{1,3}):)?(\d{1,3}):(\d{2})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!m) return null;
  const hours = Number(m[1] ?? 0);
  const minutes = Number(m[2]);
  const seconds = Number(m[3]);
  if (seconds >= 60 || (m[1] !== undefined && minutes >= 60)) return null;
  const fraction = m[4] ? Number(m[4]) / 10 ** m[4].length : 0;
  return hours * 3600 + minutes * 60 + seconds + fraction;
}
