/**
 * Public figures learned from the corpus (for bench/redaction-lexicon.ts): people whose full name
 * many different shows' speakers say about someone who is not in the conversation. A name said on
 * MIN_SHOWS shows by MIN_SPEAKERS different people, none of them in that episode, is known beyond
 * any one community (Jeff Bezos, Linus Torvalds); a previous guest, another podcast's host or a
 * colleague is named in one or two shows, or speaks in the corpus, and stays a third party.
 *
 * Only the TRAIN split's people are read (train/corpus.ts `splitOf` with train/run.ts's seed): what
 * they say, in the episodes the report set of bench/redaction-real.ts does not draw from. So the
 * report set's and the other splits' speakers never put a name on the list.
 *
 * `publicAliases`: the surnames that stand for one public figure alone ("Bezos", "Torvalds"): a
 * surname of exactly one figure, no given name, no common word, no thing's name, no speaker's name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseTurns } from '../eval/interviews.ts';
import { splitOf } from '../train/corpus.ts';
import { CORPUS } from './redaction-real-passages.ts';

/** train/run.ts's DEFAULT_SEED: the split the ranking is fitted on (not imported: run.ts loads the trainer). */
export const TRAIN_SEED = 20261126;
/** A public figure's name is said on this many shows … */
const MIN_SHOWS = 3;
/** … by this many different people of the train split. */
const MIN_SPEAKERS = 3;

export interface PublicFigures {
  publicFigures: string[];
  publicAliases: string[];
}

/** "Given Surname" inside a sentence (a possessive off). */
const FULL_NAME = /(?<![\p{L}\p{N}'’.-])(\p{Lu}\p{Ll}+)\s(\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}\p{Ll}+)?)(?:['’]s)?(?![\p{L}\p{N}])/gu;

/**
 * `files`: the episodes to read (the report set's left out by the caller); `isGiven`, `isCommon`,
 * `isThing`: the lexicon's lists (lower-case keys for the first two, as written for the third).
 */
export function minePublicFigures(files: readonly string[], isGiven: (w: string) => boolean, isCommon: (w: string) => boolean, isThing: (w: string) => boolean): PublicFigures {
  const speakerNames = new Set<string>();
  const speakerWords = new Set<string>();
  const parsed = files.map((file) => ({ file, turns: parseTurns(fs.readFileSync(path.join(CORPUS, file), 'utf8')) }));
  for (const { turns } of parsed) {
    for (const t of turns) {
      speakerNames.add(t.speaker.toLowerCase());
      for (const w of t.speaker.toLowerCase().split(/\s+/)) speakerWords.add(w);
    }
  }
  const said = new Map<string, { shows: Set<string>; speakers: Set<string> }>();
  for (const { file, turns } of parsed) {
    const show = file.split(path.sep)[0] ?? '';
    const here = new Set(turns.flatMap((t) => t.speaker.toLowerCase().split(/\s+/)));
    for (const t of turns) {
      if (splitOf(t.speaker, TRAIN_SEED) !== 'train') continue;
      for (const m of t.text.matchAll(FULL_NAME)) {
        const [given = '', surname = ''] = [m[1], m[2]].map((w) => (w ?? '').toLowerCase());
        // A given name, a surname that is no common word or thing, and nobody in this conversation.
        if (!isGiven(given) || isCommon(surname) || isThing(m[2] ?? '') || here.has(surname)) continue;
        const key = `${given} ${surname}`;
        const s = said.get(key) ?? { shows: new Set<string>(), speakers: new Set<string>() };
        s.shows.add(show);
        s.speakers.add(t.speaker);
        said.set(key, s);
      }
    }
  }
  const publicFigures = [...said]
    .filter(([name, s]) => s.shows.size >= MIN_SHOWS && s.speakers.size >= MIN_SPEAKERS && !speakerNames.has(name))
    .map(([name]) => name)
    .sort();
  const bySurname = new Map<string, number>();
  for (const name of publicFigures) {
    const surname = name.split(' ')[1] ?? '';
    bySurname.set(surname, (bySurname.get(surname) ?? 0) + 1);
  }
  const titled = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const publicAliases = [...bySurname]
    .filter(([w, n]) => n === 1 && w.length > 3 && !isGiven(w) && !isCommon(w) && !isThing(titled(w)) && !speakerWords.has(w))
    .map(([w]) => w)
    .sort();
  return { publicFigures, publicAliases };
}
