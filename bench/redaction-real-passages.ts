/**
 * The passages of bench/redaction-real.ts: real turns of ../shared/data/corpus (Changelog
 * podcasts, CC BY-SA 4.0, see its SOURCES.md; read from beside the repository, never copied into
 * it) cut into 40–120-word chunks, a seeded draw of them, and each chosen episode redacted as the
 * service redacts a transcript at ingestion.
 *
 * With no show filter, a seed draws exactly as the bench always did (seed 41, the report set,
 * draws the same 400 passages as when it was first judged). `shows` keeps only those shows'
 * episodes, `excludeShows` drops those shows, and `excludeFiles` drops single episodes, all before
 * the draw (the development set: other shows, and no episode of the report set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTurns } from '../eval/interviews.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import type { Found } from '../src/privacy/detect.ts';
import { redactWithKnownNumbers } from '../src/privacy/redactor.ts';
import { redactUtterances } from '../src/privacy/transcript.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'data', 'corpus', 'changelog');
/** Passages drawn among those with a digit or a capitalised word inside a sentence (where false positives hide). */
export const TARGETED = 300;
/** Passages drawn uniformly. */
export const UNIFORM = 100;
/** A passage's length in words: long enough to read as context, short enough to judge. */
const MIN_WORDS = 40;
const MAX_WORDS = 120;
/** A value counts as found when spans of its kind cover this share of its non-space characters (what is left readable is a leak). */
const COVERED = 0.9;
/** Any 32-character key: the numbers it gives are not looked at. */
const KEY = 'k'.repeat(32);

export const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

export interface Passage {
  id: string;
  set: 'targeted' | 'uniform';
  file: string;
  turn: number;
  /** [start, end) of the passage in its turn's text. */
  start: number;
  end: number;
}

export interface Selection {
  seed: number;
  shows?: readonly string[];
  excludeShows?: readonly string[];
  excludeFiles?: ReadonlySet<string>;
}

/** A turn's 40–120-word chunks, cut at sentence ends (a sentence over 120 words is cut at a word). */
export function chunks(text: string): Array<[number, number]> {
  const sentences: Array<[number, number]> = [];
  const ends = /[.!?…]+["'”’)]*\s+/g;
  let at = 0;
  for (const m of text.matchAll(ends)) {
    sentences.push([at, m.index + m[0].length]);
    at = m.index + m[0].length;
  }
  if (at < text.length) sentences.push([at, text.length]);
  const out: Array<[number, number]> = [];
  let from = -1;
  let n = 0;
  const flush = (to: number) => {
    if (from >= 0 && n >= MIN_WORDS) out.push([from, to]);
    from = -1;
    n = 0;
  };
  for (const [s, e] of sentences) {
    const w = words(text.slice(s, e));
    if (w > MAX_WORDS) {
      flush(s);
      // A run-on sentence: cut into pieces of MAX_WORDS words.
      const re = /\S+\s*/g;
      let piece = s;
      let count = 0;
      for (const m of text.slice(s, e).matchAll(re)) {
        count++;
        if (count === MAX_WORDS) {
          out.push([piece, s + m.index + m[0].length]);
          piece = s + m.index + m[0].length;
          count = 0;
        }
      }
      if (count >= MIN_WORDS) out.push([piece, e]);
      continue;
    }
    if (from >= 0 && n + w > MAX_WORDS) flush(s);
    if (from < 0) from = s;
    n += w;
    if (n >= MIN_WORDS) flush(e);
  }
  flush(text.length);
  return out.map(([s, e]) => [s, s + text.slice(s, e).trimEnd().length]);
}

/** A digit, or a capitalised word not at a sentence's start and not "I" (I'm, I'll …). */
function hasHidingPlace(text: string): boolean {
  if (/\d/.test(text)) return true;
  for (const m of text.matchAll(/\p{Lu}[\p{L}'’-]*/gu)) {
    if (/^I(?:['’]\p{L}+)?$/u.test(m[0])) continue;
    const before = text.slice(0, m.index).trimEnd();
    if (before === '' || /[.!?…:]["'”’)]*$/.test(before)) continue;
    if (m.index > 0 && !/[\s"'“‘(\-—]/.test(text[m.index - 1] ?? ' ')) continue; // inside a word (camelCase)
    return true;
  }
  return false;
}

/** Every episode of the corpus as `show/file.md`, in a fixed order; `shows`/`excludeShows` filter by show. */
export function episodeFiles(filter: Pick<Selection, 'shows' | 'excludeShows'> = {}): string[] {
  return fs
    .readdirSync(CORPUS)
    .sort()
    .filter((show) => fs.statSync(path.join(CORPUS, show)).isDirectory())
    .filter((show) => (!filter.shows || filter.shows.includes(show)) && !filter.excludeShows?.includes(show))
    .flatMap((show) =>
      fs
        .readdirSync(path.join(CORPUS, show))
        .filter((f) => f.endsWith('.md'))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
        .map((f) => path.join(show, f)),
    );
}

const turnsOf = new Map<string, ReturnType<typeof parseTurns>>();
export const turns = (file: string): ReturnType<typeof parseTurns> => {
  let t = turnsOf.get(file);
  if (!t) {
    t = parseTurns(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
    turnsOf.set(file, t);
  }
  return t;
};
export const forget = (file: string): void => void turnsOf.delete(file);

/** The seeded draw: UNIFORM passages uniformly, then TARGETED among the others that have a hiding place. */
export function choose(selection: Selection): Passage[] {
  const all: Array<Omit<Passage, 'id' | 'set'> & { hiding: boolean }> = [];
  for (const file of episodeFiles(selection)) {
    if (selection.excludeFiles?.has(file)) continue;
    turns(file).forEach((t, turn) => {
      for (const [start, end] of chunks(t.text)) all.push({ file, turn, start, end, hiding: hasHidingPlace(t.text.slice(start, end)) });
    });
    forget(file); // parsed again for the chosen ones only
  }
  const rng = seededRandom(selection.seed);
  const draw = <T>(pool: T[], n: number): T[] => {
    const left = [...pool];
    const out: T[] = [];
    while (out.length < n && left.length > 0) out.push(left.splice(Math.floor(rng() * left.length), 1)[0] as T);
    return out;
  };
  const uniform = draw(all, UNIFORM);
  const taken = new Set(uniform);
  const targeted = draw(
    all.filter((p) => p.hiding && !taken.has(p)),
    TARGETED,
  );
  const hiding = all.filter((p) => p.hiding).length;
  console.error(`${all.length} passages of ${MIN_WORDS}–${MAX_WORDS} words in the pool, ${hiding} with a digit or a capitalised word inside a sentence`);
  const pad = (n: number) => String(n + 1).padStart(3, '0');
  return [
    ...targeted.map(({ hiding: _h, ...p }, i) => ({ ...p, id: `A${pad(i)}`, set: 'targeted' as const })),
    ...uniform.map(({ hiding: _h, ...p }, i) => ({ ...p, id: `U${pad(i)}`, set: 'uniform' as const })),
  ];
}

/** The episode redacted as the service redacts a transcript (privacy/transcript.ts): its spans per turn. */
export function redactEpisode(file: string): Found[][] {
  const ts = turns(file);
  const spoken = new Map<string, number>();
  for (const t of ts) spoken.set(t.speaker, (spoken.get(t.speaker) ?? 0) + words(t.text));
  // The mind is the one who speaks most (the guest of a one-to-one show); its name and speaker label are that speaker's.
  const person = [...spoken].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  const utterances = ts.map((t) => ({ speaker: t.speaker as string | null, text: t.text }));
  const names = [person, person];
  // What redactUtterances passes to the redactor (it returns no spans): the names and every turn's speaker.
  const speakers = [...new Set([...names, ...utterances.map((u) => u.speaker)])];
  const { found, counts } = redactWithKnownNumbers(
    utterances.map((u) => u.text),
    { speakers, key: KEY, known: [] },
  );
  const service = redactUtterances(utterances, { mode: 'stored', key: KEY, known: [] }, names);
  if (JSON.stringify(service.counts) !== JSON.stringify(counts)) throw new Error(`${file}: the adapter's counts differ from redactUtterances'`);
  return found;
}

export const passageText = (p: Passage): string => (turns(p.file)[p.turn]?.text ?? '').slice(p.start, p.end);

/** How many of a selection's passages each show holds, and its episodes. */
export function showsOf(passages: readonly Passage[]): { shows: Map<string, number>; files: Set<string> } {
  const shows = new Map<string, number>();
  for (const p of passages) {
    const show = p.file.split(path.sep)[0] ?? '';
    shows.set(show, (shows.get(show) ?? 0) + 1);
  }
  return { shows: new Map([...shows].sort((a, b) => b[1] - a[1])), files: new Set(passages.map((p) => p.file)) };
}

/** Whether spans cover ≥ COVERED of [at, at + length)'s non-space characters. */
export function covered(text: string, at: number, length: number, spans: ReadonlyArray<{ start: number; end: number }>): boolean {
  let chars = 0;
  let hit = 0;
  for (let c = at; c < at + length; c++) {
    if (/\s/.test(text[c] ?? ' ')) continue;
    chars++;
    if (spans.some((s) => s.start <= c && c < s.end)) hit++;
  }
  return hit >= COVERED * chars;
}
