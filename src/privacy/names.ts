/**
 * Names as keys, and the speakers as known people: the words of the speakers' names (the
 * person, the interviewer, every turn's speaker, the mind's name) are never a third party's, nor
 * are the short forms people use for them: a shortened given name ("Greg" for Gregory, "Chris"
 * for Christopher), a usual nickname ("Bob" for Robert, "Bill" for William, "Mike" for Michael),
 * the initial and surname run together ("Kball" for Kevin Ball) and the given name and surname
 * run together ("matryer"), as handles are.
 */

import { isNameWord } from './lexicon.ts';

/** A name as its key: lower case, accents off, possessive and punctuation dropped, single spaces. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/['’]s$/i, '')
    .replace(/[^\p{L}\p{N}' -]/gu, ' ')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Usual English short forms of given names, both ways (a speaker labelled "Mike" may be called "Michael"). */
const NICKNAMES: ReadonlyArray<readonly [string, string]> = [
  ['robert', 'bob bobby rob robbie bert'],
  ['william', 'bill billy will willy liam'],
  ['richard', 'rick ricky rich dick'],
  ['james', 'jim jimmy jamie'],
  ['michael', 'mike mikey mick'],
  ['elizabeth', 'liz lizzie beth betty eliza'],
  ['katherine', 'kate kathy katie kat'],
  ['catherine', 'cathy kate katie cat'],
  ['margaret', 'maggie meg peggy'],
  ['edward', 'ed eddie ted ned'],
  ['thomas', 'tom tommy'],
  ['joseph', 'joe joey'],
  ['anthony', 'tony'],
  ['charles', 'charlie chuck'],
  ['christopher', 'chris kit'],
  ['kristopher', 'kris'],
  ['steven', 'steve'],
  ['stephen', 'steve'],
  ['jonathan', 'jon jonny'],
  ['john', 'johnny jack'],
  ['matthew', 'matt mat'],
  ['nicholas', 'nick nicky'],
  ['andrew', 'andy drew'],
  ['alexander', 'alex sandy'],
  ['alexandra', 'alex sandra'],
  ['jennifer', 'jen jenny jenn'],
  ['rebecca', 'becky becca'],
  ['patricia', 'pat patty trish'],
  ['patrick', 'pat paddy'],
  ['susan', 'sue susie'],
  ['deborah', 'deb debbie'],
  ['daniel', 'dan danny'],
  ['benjamin', 'ben benji'],
  ['samuel', 'sam sammy'],
  ['samantha', 'sam'],
  ['jacob', 'jake'],
  ['zachary', 'zach zac zack'],
  ['gregory', 'greg'],
  ['timothy', 'tim timmy'],
  ['kenneth', 'ken kenny'],
  ['lawrence', 'larry'],
  ['ronald', 'ron ronnie'],
  ['donald', 'don donnie'],
  ['gerald', 'jerry gerry'],
  ['raymond', 'ray'],
  ['frederick', 'fred freddie'],
  ['frederic', 'fred'],
  ['henry', 'hank harry'],
  ['harold', 'harry hal'],
  ['nathaniel', 'nate nat'],
  ['nathan', 'nate'],
  ['peter', 'pete'],
  ['phillip', 'phil'],
  ['philip', 'phil pip'],
  ['douglas', 'doug'],
  ['jeffrey', 'jeff'],
  ['geoffrey', 'geoff jeff'],
  ['joshua', 'josh'],
  ['victoria', 'vicky tori'],
  ['abigail', 'abby'],
  ['suzanne', 'suzy sue'],
  ['vincent', 'vince vinny'],
  ['leonard', 'leo len lenny'],
  ['theodore', 'ted teddy theo'],
  ['gabriel', 'gabe'],
  ['jessica', 'jess jessie'],
  ['kimberly', 'kim'],
  ['jacqueline', 'jackie'],
  ['isabella', 'bella izzy'],
  ['dorothy', 'dot dottie'],
  ['kevin', 'kev'],
  ['adam', 'ad'],
  ['jerod', 'jer'],
];
const SHORT = new Map<string, Set<string>>();
for (const [full, shorts] of NICKNAMES) {
  for (const s of shorts.split(' ')) {
    SHORT.set(full, (SHORT.get(full) ?? new Set()).add(s));
    SHORT.set(s, (SHORT.get(s) ?? new Set()).add(full));
  }
}
/** A shortened given name ("Greg" of Gregory) keeps at least this many letters, and is itself a known given name. */
const MIN_SHORT_NAME = 3;

/** The words of the speakers' names and the short forms people use for them: never third parties. */
export function speakerWords(names: ReadonlyArray<string | null | undefined>): Set<string> {
  const words = new Set<string>();
  for (const n of names) {
    if (!n) continue;
    const parts = nameKey(n).split(' ').filter((w) => w.length > 1);
    for (const w of parts) words.add(w);
    const [first, ...rest] = parts;
    if (!first) continue;
    for (let k = MIN_SHORT_NAME; k < first.length; k++) if (isNameWord(first.slice(0, k))) words.add(first.slice(0, k));
    for (const s of SHORT.get(first) ?? []) words.add(s);
    const last = rest.at(-1);
    if (last) {
      words.add(`${first[0]}${last}`);
      words.add(`${first}${last}`);
    }
  }
  return words;
}
