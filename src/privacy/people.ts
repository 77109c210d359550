import type { Span } from './kinds.ts';
import { compromise, isCommonWord, isNameWord, isNotPerson } from './lexicon.ts';
import { cued, sentenceInitial, thingBefore, thingContext } from './person-context.ts';

export { nameKey, speakerWords } from './names.ts';

/**
 * Names of third parties: people other than the speakers. wink-nlp's English lite model (used
 * elsewhere in the service) tags no person entities, so this uses compromise (MIT, maintained,
 * no model download: a lexicon of given names and a rule-based tagger, about 40 µs a word here):
 * its person tags, reduced to the name words (titles like "Dr." and relations like "my sister"
 * stay in the text), and the way people talk about someone (person-context.ts). What tells a
 * person from a thing (issue 30, measured on real transcripts by bench/redaction-real.ts):
 * - names learned from the corpus (lexicon.ts): a word that is a product's, project's, company's
 *   or place's name there ("Kubernetes", "Grafana", "Austin") is no person unless said as one
 *   ("Jenkins told me"), nor is a common word ("Because", "Stack");
 * - capitalisation in context: a common word capitalised at a sentence's start is that word; a
 *   word in capitals ("TUI", "NAS") is an acronym;
 * - compromise's organisation and place tags, and the context of a thing or a place ("the X",
 *   "in X", "X 2.0", "the X CLI");
 * - the speakers as known people, with the short forms of their names (names.ts).
 * Public figures are left by detect.ts, which sees the whole batch.
 */

interface CompromiseTerm {
  text: string;
  pre: string;
  post: string;
  tags: string[];
  offset: { start: number; length: number };
}
interface CompromiseSentence {
  terms: CompromiseTerm[];
}

const PERSON_TAGS = new Set(['Person', 'FirstName', 'LastName', 'MaleName', 'FemaleName']);
const NOT_NAME_TAGS = new Set(['Honorific', 'Actor', 'Pronoun', 'Determiner', 'Adjective', 'Verb', 'Value', 'Date', 'Month', 'WeekDay', 'Acronym', 'Preposition', 'Conjunction', 'Adverb', 'QuestionWord', 'Organization', 'Place', 'Expression']);
/** Words compromise sometimes reads as names that, in an interview, are almost always something else. */
const NOT_NAMES = new Set(
  ('i mom mum dad mother father sister brother grandma grandpa granny nan uncle aunt auntie wife husband son daughter boss god lord jesus christ ' +
    'mr mrs ms miss dr sir madam professor prof hey hi hello yeah okay ok thanks thank well so um uh like ' +
    'as on in at to of and or but the a an for with from by if when then dear yes no oh').split(' '),
);

const bare = (t: CompromiseTerm): string => t.text.replace(/['’]s?$/i, '');
const titled = (t: CompromiseTerm): boolean => /^\p{Lu}[\p{Ll}'’-]*\p{Ll}/u.test(t.text);
/** A contraction ("I'm", "Don't", "We'll"): no name, though "Don" is one. O'Reilly, D'Angelo are names. */
const contraction = (w: string): boolean => /['’](?!s$)\p{Ll}/u.test(w);
const allowed = (t: CompromiseTerm): boolean =>
  !t.tags.some((tag) => NOT_NAME_TAGS.has(tag)) && /\p{L}/u.test(t.text) && !NOT_NAMES.has(bare(t).toLowerCase()) && !/^\p{Lu}{2,}$/u.test(bare(t)) && !contraction(t.text);
/** A word compromise knows as (part of) a person's name. */
const isPersonTerm = (t: CompromiseTerm): boolean => t.tags.some((tag) => PERSON_TAGS.has(tag)) && allowed(t);
/** A capitalised proper noun next to a name word: the rest of the name ("Warren" + "Buffett"). */
const extendsName = (t: CompromiseTerm): boolean => titled(t) && t.tags.includes('ProperNoun') && allowed(t);
/** Nothing but a space between two words (no comma, full stop or dash). */
const joined = (a: CompromiseTerm, b: CompromiseTerm): boolean => /^\s*$/.test(a.post) && /^\s*$/.test(b.pre) && !/['’]s$/i.test(a.text);
const UNCOMMON_TAGS = new Set(['ProperNoun', 'Noun', 'Singular']);
/** A capitalised word compromise reads only as a (proper) noun: no verb, adjective, pronoun … */
const nameLike = (t: CompromiseTerm): boolean => titled(t) && allowed(t) && t.tags.every((tag) => UNCOMMON_TAGS.has(tag) || PERSON_TAGS.has(tag));
/** A capitalised word that may be a name when said as one ("I first met Baron"): a noun, maybe one of a role, and no common word. */
const cueable = (t: CompromiseTerm): boolean =>
  nameLike(t) || (titled(t) && !isCommonWord(bare(t)) && !NOT_NAMES.has(bare(t).toLowerCase()) && t.tags.every((tag) => UNCOMMON_TAGS.has(tag) || tag === 'Actor'));
/** A capitalised word that is neither a common word nor a thing's name in the corpus: an unknown name, maybe. */
const unknownName = (t: CompromiseTerm): boolean => nameLike(t) && !isCommonWord(bare(t)) && !isNotPerson(bare(t));

/** A text with no capital letter but "I" (automatic captions): names are in lower case there too. */
const captionStyle = (text: string): boolean => !/\p{Lu}/u.test(text.replace(/\bI\b/g, ''));

/** The third parties' names in a text (each a span of its name words). `speakers` holds the words of the speakers' names and their short forms. */
export function findPeople(text: string, speakers: ReadonlySet<string> = new Set()): Span[] {
  if (!/\p{L}/u.test(text)) return [];
  const spans: Span[] = [];
  const sentences = compromise()(text).json({ offset: true, terms: { offset: true } }) as CompromiseSentence[];
  for (const { terms } of sentences) {
    for (let i = 0; i < terms.length; i++) {
      const seed = terms[i];
      if (!seed) continue;
      const at = seed.offset.start;
      const next = terms[i + 1];
      const known = isPersonTerm(seed) || (titled(seed) && isNameWord(bare(seed)) && !isCommonWord(bare(seed)) && !isNotPerson(bare(seed)) && allowed(seed));
      const pairOfUnknowns = next !== undefined && unknownName(seed) && unknownName(next) && joined(seed, next) && !sentenceInitial(text, at);
      if (!(known || pairOfUnknowns || (cueable(seed) && cued(text, at, at + seed.text.length)))) continue;
      let from = i;
      let to = i;
      while (from > 0 && extendsName(terms[from - 1] as CompromiseTerm) && joined(terms[from - 1] as CompromiseTerm, terms[from] as CompromiseTerm)) from--;
      while (to + 1 < terms.length) {
        const after = terms[to + 1] as CompromiseTerm;
        if (!(isPersonTerm(after) || extendsName(after)) || !joined(terms[to] as CompromiseTerm, after)) break;
        to++;
      }
      addRun(text, terms.slice(from, to + 1), speakers, spans);
      i = to;
    }
  }
  for (const s of listed(text, spans, speakers)) if (!spans.some((o) => s.start < o.end && o.start < s.end)) spans.push(s);
  return spans.sort((a, b) => a.start - b.start);
}

/** Whether a run of name words is a person's name, said as one here. */
function isPersonRun(text: string, run: CompromiseTerm[], start: number, end: number): boolean {
  const words = run.map(bare);
  if (words.length === 1) {
    const [w = ''] = words;
    // A strong cue makes even a thing's name a person's ("my colleague Jenkins"); a weak one only an unknown word.
    if (cued(text, start, end, 'strong')) return true;
    if (isNotPerson(w) || thingContext(text, start, end)) return false;
    if (isCommonWord(w) && !(isNameWord(w) && isPersonTerm(run[0] as CompromiseTerm) && !sentenceInitial(text, start))) return false;
    return true;
  }
  // A full name: a given name and a surname that is no thing's name, or words none of which is a thing's or a common word, not said as a thing ("The Polycade Sente").
  if (isNameWord(words[0] ?? '') && !isNotPerson(words.at(-1) ?? '')) return true;
  return words.every((w) => !isNotPerson(w) && !isCommonWord(w)) && !thingBefore(text, start, end);
}

function addRun(text: string, terms: CompromiseTerm[], speakers: ReadonlySet<string>, spans: Span[]): void {
  let run = terms;
  // A common word that starts the sentence is that word ("Because Adam" is "Adam"), a word in capitals an acronym.
  while (run.length > 0 && (/^\p{Lu}{2,}$/u.test(bare(run[0] as CompromiseTerm)) || (sentenceInitial(text, run[0]?.offset.start ?? 0) && run.length > 1 && isCommonWord(bare(run[0] as CompromiseTerm)) && !isNameWord(bare(run[0] as CompromiseTerm))))) run = run.slice(1);
  while (run.length > 0 && /^\p{Lu}{2,}$/u.test(bare(run.at(-1) as CompromiseTerm))) run = run.slice(0, -1);
  const first = run[0];
  const last = run.at(-1);
  if (!first || !last) return;
  let start = first.offset.start;
  let end = last.offset.start + last.offset.length;
  // compromise's offsets count as the text does; check, and find the words nearby if they drifted.
  if (text.slice(start, start + first.text.length) !== first.text) {
    const at = text.indexOf(first.text, Math.max(0, start - 8));
    if (at < 0) return;
    end += at - start;
    start = at;
  }
  let value = text.slice(start, end).replace(/[\s,.;:!?)]+$/, '');
  const possessive = /['’]s?$/i.exec(value);
  if (possessive && value.length > possessive[0].length + 1) value = value.slice(0, -possessive[0].length);
  end = start + value.length;
  const words = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter(Boolean);
  if (words.length === 0 || words.every((w) => speakers.has(w))) return;
  // A name in lower case is taken only from a text in lower case throughout (automatic captions), and then only a known given name or two words.
  if (value === value.toLowerCase() && (!captionStyle(text) || (words.length === 1 && !run[0]?.tags.includes('FirstName')))) return;
  if (value !== value.toLowerCase() && !isPersonRun(text, run, start, end)) return;
  spans.push({ start, end, kind: 'person', value });
}

/** A list of names one of which is a person's ("Axel, Christian, Jorge", "Nabil and Marsh"): its other unknown names are people too. */
const LIST = /\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s\p{Lu}\p{Ll}[\p{L}'’-]*)?(?:(?:,\s+|,?\s+(?:and|or|&)\s+)\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s\p{Lu}\p{Ll}[\p{L}'’-]*)?)+/gu;
function listed(text: string, found: readonly Span[], speakers: ReadonlySet<string>): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(LIST)) {
    const items = [...m[0].matchAll(/\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s\p{Lu}\p{Ll}[\p{L}'’-]*)?/gu)].map((x) => ({ start: m.index + x.index, end: m.index + x.index + x[0].length, value: x[0].replace(/['’]s?$/, '') }));
    const person = (i: (typeof items)[number]) => found.some((s) => s.start === i.start) || i.value.toLowerCase().split(' ').every((w) => speakers.has(w));
    if (!items.some(person)) continue;
    for (const i of items) {
      if (person(i) || sentenceInitial(text, i.start)) continue;
      const words = i.value.split(' ');
      if (words.some((w) => isCommonWord(w) || isNotPerson(w) || speakers.has(w.toLowerCase()))) continue;
      out.push({ start: i.start, end: i.start + i.value.length, kind: 'person', value: i.value });
    }
  }
  return out;
}
