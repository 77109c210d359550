/**
 * Interviews for the fidelity evaluation: Changelog-style Markdown transcripts (each turn a
 * paragraph `**Speaker Name:** text`, inline `\[00:04:18.18\]` timestamps, `**Break:**` ad
 * breaks) read into turns, the guest's Q/A pairs found, and some held out.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Turn } from '../testkit/fixtures.ts';
import { questionContext } from '../src/memory/build.ts';

export interface QaPair {
  /** Index of the host's turn; the guest's answer is the next turn. */
  turn: number;
  question: string;
  answer: string;
}

export interface Interview {
  file: string;
  guest: string;
  host: string;
  turns: Turn[];
  pairs: QaPair[];
}

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** Where the interviews are read from unless a folder is given: next to the repository, written relative to it. */
export const DEFAULT_INTERVIEWS = path.join('..', 'shared', 'data', 'interviews', 'changelog');

/** A folder given on the command line (relative to the working folder), or the default one (relative to the repository). */
export function interviewsDir(given?: string): string {
  return given ? path.resolve(given) : path.resolve(REPO_ROOT, DEFAULT_INTERVIEWS);
}

/** A path as reports and messages show it: relative to the repository, never absolute (no machine's folders in EVAL.md). */
export function shownPath(p: string): string {
  return path.relative(REPO_ROOT, path.resolve(p)) || '.';
}

const SPEAKER_RE = /^\*\*([^*]+?):\*\*\s*/;
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;
/** Held-out answers have at least this many words (a "Yeah." is not a held-out answer). */
const MIN_ANSWER_WORDS = 25;

/** Markdown text → plain spoken text: no escaped timestamps or [laughs], no backslash escapes. */
function plain(text: string): string {
  return text
    .replace(/\\\[[^\]]*?\\\]/g, ' ')
    .replace(/\\(.)/g, '$1')
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Turns of a transcript: speaker paragraphs, continuation paragraphs joined, breaks dropped, same-speaker runs merged. */
export function parseTurns(markdown: string): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | null = null;
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    const m = SPEAKER_RE.exec(paragraph.trim());
    if (m) {
      const speaker = (m[1] ?? '').trim();
      current = speaker.toLowerCase() === 'break' ? null : { speaker, text: plain(paragraph.trim().slice(m[0].length)) };
      if (current) {
        const last = turns[turns.length - 1];
        if (last && last.speaker === current.speaker) {
          last.text = `${last.text} ${current.text}`;
          current = last;
        } else turns.push(current);
      }
    } else if (current) current.text = `${current.text} ${plain(paragraph)}`.trim();
  }
  return turns.filter((t) => t.text.length > 0);
}

/** Guest and host per file from a SOURCES.md table next to (or one folder above) the transcripts. */
function sources(dir: string): Map<string, { guest: string; host: string }> {
  const out = new Map<string, { guest: string; host: string }>();
  for (const candidate of [path.join(dir, 'SOURCES.md'), path.join(dir, '..', 'SOURCES.md')]) {
    if (!fs.existsSync(candidate)) continue;
    for (const line of fs.readFileSync(candidate, 'utf8').split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      if (cells[1]?.endsWith('.md') && cells[4] && cells[5]) out.set(cells[1], { guest: cells[4], host: cells[5] });
    }
    break;
  }
  return out;
}

export function readInterviews(dir: string, limit = Infinity): Interview[] {
  if (!fs.existsSync(dir)) throw new Error(`no interview folder at ${shownPath(dir)} (give one: npm run eval -- <dir>)`);
  const known = sources(dir);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'SOURCES.md')
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .slice(0, limit);
  return files.map((file) => {
    const turns = parseTurns(fs.readFileSync(path.join(dir, file), 'utf8'));
    const words = new Map<string, number>();
    for (const t of turns) words.set(t.speaker, (words.get(t.speaker) ?? 0) + wordCount(t.text));
    const ranked = [...words].sort((a, b) => b[1] - a[1]);
    const guest = known.get(file)?.guest ?? ranked[0]?.[0] ?? '';
    const host = known.get(file)?.host ?? ranked.find(([s]) => s !== guest)?.[0] ?? '';
    const pairs: QaPair[] = [];
    turns.forEach((t, i) => {
      const next = turns[i + 1];
      if (t.speaker !== host || next?.speaker !== guest || !t.text.includes('?')) return;
      const question = questionContext(t.text);
      if (question) pairs.push({ turn: i, question, answer: next.text });
    });
    return { file, guest, host, turns, pairs };
  });
}

/** Every k-th substantial Q/A pair, at most `max`: deterministic and spread over the interview. */
export function holdOut(interview: Interview, max: number): QaPair[] {
  const candidates = interview.pairs.filter((p) => wordCount(p.answer) >= MIN_ANSWER_WORDS);
  const step = Math.max(2, Math.floor(candidates.length / max));
  return candidates.filter((_, i) => i % step === step - 1).slice(0, max);
}

/** The transcript the mind is built from: the held-out questions and answers removed. */
export function withoutHeldOut(interview: Interview, heldOut: readonly QaPair[]): Turn[] {
  const drop = new Set(heldOut.flatMap((p) => [p.turn, p.turn + 1]));
  return interview.turns.filter((_, i) => !drop.has(i));
}
