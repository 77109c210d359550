/**
 * What the person detector knows about words, loaded on first use:
 * - lexicon/corpus-names.json, learned from ../shared/data/corpus by bench/redaction-lexicon.ts
 *   (see there how): capitalised words that are products, projects, companies or places
 *   (`notPeople`), words said in lower case (`common`), given names and surnames (`givenNames`),
 *   and public figures (`publicFigures`: full names many shows' speakers say about people not in
 *   the conversation; `publicAliases`: surnames that stand for one of them alone);
 * - compromise's own lexicon: given names and surnames, and its famous people (its `Person` tag:
 *   "bill gates"). A public figure's name is no third party's personal data.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

interface CorpusNames {
  notPeople: string[];
  common: string[];
  givenNames: string[];
  publicFigures: string[];
  publicAliases: string[];
}
interface Lexicon {
  notPeople: Set<string>;
  notPeopleFolded: Set<string>;
  common: Set<string>;
  given: Set<string>;
  /** Public figures by their name's key (lower case, accents off). */
  publicFigures: Set<string>;
  /** Their given names by surname, to read a misspelt given name ("Reed Hoffman"). */
  publicBySurname: Map<string, string[]>;
}

type Compromise = typeof nlpType;
/** compromise's world, as far as this reads it (its word → tags lexicon). */
type World = { model: { one: { lexicon: Record<string, string | string[]> } } };
let nlpLoaded: Compromise | null = null;
/** compromise, loaded on first use (its lexicon takes ~0.3 s to load: only minds with redaction on pay it). */
export const compromise = (): Compromise => (nlpLoaded ??= createRequire(import.meta.url)('compromise') as Compromise);

/** Lower case, accents off: how lexicon words are compared. */
const fold = (w: string): string => w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

let loaded: Lexicon | null = null;
function lexicon(): Lexicon {
  if (loaded) return loaded;
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(new URL(`./lexicon/${file}`, import.meta.url), 'utf8')) as T;
  const corpus = read<CorpusNames>('corpus-names.json');
  const given = new Set(corpus.givenNames.map(fold));
  const famous: string[] = [];
  for (const [word, tags] of Object.entries((compromise().world() as unknown as World).model.one.lexicon)) {
    const all = [tags].flat();
    if (all.some((t) => t === 'FirstName' || t === 'MaleName' || t === 'FemaleName' || t === 'LastName')) given.add(fold(word));
    if (all.includes('Person') && word.includes(' ')) famous.push(word);
  }
  const publicFigures = new Set<string>(corpus.publicAliases.map(figureKey));
  const publicBySurname = new Map<string, string[]>();
  for (const n of [...corpus.publicFigures, ...famous]) {
    const key = figureKey(n);
    publicFigures.add(key);
    const words = key.split(' ');
    const surname = words.at(-1);
    if (words.length === 2 && surname) publicBySurname.set(surname, [...(publicBySurname.get(surname) ?? []), words[0] ?? '']);
  }
  loaded = { publicBySurname, notPeople: new Set(corpus.notPeople), notPeopleFolded: new Set(corpus.notPeople.map(fold)), common: new Set(corpus.common), given, publicFigures };
  return loaded;
}

/** A public figure's key: lower case, accents, dots and a possessive off ("J.R.R. Tolkien's" → "j r r tolkien"). */
export function figureKey(name: string): string {
  return fold(name)
    .replace(/['’]s$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A product's, project's, company's or place's name in the corpus ("Kubernetes", "Grafana", "Austin"), as written there. */
export const isNotPerson = (word: string): boolean => lexicon().notPeople.has(word.replace(/['’]s?$/, ''));
/** The same, whatever the case ("hashicorp", "nodejs" in a URL or an e-mail address). */
export const isNotPersonFolded = (word: string): boolean => lexicon().notPeopleFolded.has(fold(word));
/** A word people say in lower case ("because", "stack", "hello"). */
export const isCommonWord = (word: string): boolean => lexicon().common.has(word.toLowerCase());
/** A given name or surname known to compromise, or learned from the corpus. */
export const isNameWord = (word: string): boolean => lexicon().given.has(fold(word.replace(/['’]s?$/, '')));
/** A public figure's name: the whole name as listed, a surname that stands for one alone, or a given name and surname whose given name is misspelt by one letter ("Reed Hoffman"). */
export function isPublicFigure(name: string): boolean {
  const { publicFigures, publicBySurname } = lexicon();
  const key = figureKey(name);
  if (publicFigures.has(key)) return true;
  const [given, surname, ...rest] = key.split(' ');
  if (!given || !surname || rest.length > 0 || given.length < MIN_FUZZY) return false;
  return (publicBySurname.get(surname) ?? []).some((g) => g[0] === given[0] && oneEditApart(g, given));
}
/** Given names shorter than this are matched exactly (one letter is too much of "Al"). */
const MIN_FUZZY = 4;

/** Whether two words differ by one letter replaced, added or dropped. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return a === b;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
