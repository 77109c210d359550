import { createRequire } from 'node:module';
import type nlpType from 'compromise';
import type { Span } from './kinds.ts';

/**
 * Names of third parties: people other than the person and the interviewer. wink-nlp's English
 * lite model (used elsewhere in the service) tags no person entities, so this uses compromise
 * (MIT, maintained, no model download: a lexicon of given names and a rule-based tagger, about
 * 40 µs a word here): `.people()`, reduced to the name words (titles like "Dr." and
 * relations like "my sister" stay in the text). The speakers' own names are never redacted.
 */

/** compromise, loaded on first use (its lexicon takes ~0.3 s to load: only minds with redaction on pay it). */
let loaded: typeof nlpType | null = null;
function nlp(text: string): ReturnType<typeof nlpType> {
  loaded ??= createRequire(import.meta.url)('compromise') as typeof nlpType;
  return loaded(text);
}

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

/** The words of the speakers' names (the person, the interviewer, the mind's name): never third parties. */
export function speakerWords(names: ReadonlyArray<string | null | undefined>): Set<string> {
  const words = new Set<string>();
  for (const n of names) if (n) for (const w of nameKey(n).split(' ')) if (w.length > 1) words.add(w);
  return words;
}

const bare = (t: CompromiseTerm): string => t.text.replace(/['’]s$/i, '');
const titled = (t: CompromiseTerm): boolean => /^\p{Lu}[\p{Ll}'’-]*\p{Ll}/u.test(t.text);
const allowed = (t: CompromiseTerm): boolean =>
  !t.tags.some((tag) => NOT_NAME_TAGS.has(tag)) && /\p{L}/u.test(t.text) && !NOT_NAMES.has(bare(t).toLowerCase());
/** A word compromise knows as (part of) a person's name. */
const isPersonTerm = (t: CompromiseTerm): boolean => t.tags.some((tag) => PERSON_TAGS.has(tag)) && allowed(t);
/** A capitalised proper noun next to a name word: the rest of the name ("Warren" + "Buffett"). */
const extendsName = (t: CompromiseTerm): boolean => titled(t) && t.tags.includes('ProperNoun') && allowed(t);
/** Nothing but a space between two words (no comma, full stop or dash). */
const joined = (a: CompromiseTerm, b: CompromiseTerm): boolean => /^\s*$/.test(a.post) && /^\s*$/.test(b.pre) && !/['’]s$/i.test(a.text);

/** A text with no capital letter but "I" (automatic captions): names are in lower case there too. */
const captionStyle = (text: string): boolean => !/\p{Lu}/u.test(text.replace(/\bI\b/g, ''));

/**
 * Where compromise's lexicon does not know a name (many given names outside English), the way
 * people talk about someone: a capitalised word that is no common word, right before "told me",
 * "said", "asked", "and I" …, or right after "my friend", "my colleague", "I called", "with" ….
 */
const SAID_AFTER = /^\s*(?:told|said|says|asked|thinks|thought|called|texted|wrote|mentioned|and I|and me|was telling|had said|always says)\b/;
const SAID_BEFORE = /(?:\b(?:my|our|his|her|their) (?:(?:old|new|former|best|first|late|little|big|older|younger|current) )?(?:friend|colleague|co-worker|coworker|boss|manager|partner|wife|husband|sister|brother|mom|mum|mother|dad|father|cousin|neighbou?r|cofounder|co-founder|founder|mentor|son|daughter|aunt|uncle|nephew|niece|grandson|granddaughter|grandmother|grandfather|producer|editor|agent|lawyer|attorney|doctor|therapist|teacher|coach|landlord|landlady|assistant|roommate|flatmate|housemate|girlfriend|boyfriend|fianc[ée]e?|ex|kid|child|lead|director|ceo|cto|cfo|investor|client|customer|student|professor|supervisor|advisor|adviser|intern|recruiter|accountant|nurse|dentist|pastor|priest|rabbi|imam|babysitter|nanny|tutor|classmate|teammate|buddy|pal)|\b(?:I|we) (?:called|asked|told|met|hired|texted)|\bworked with|\btalked to|\bspoke to)\s+$/i;
const cued = (text: string, t: CompromiseTerm): boolean =>
  SAID_AFTER.test(text.slice(t.offset.start + t.text.length, t.offset.start + t.text.length + 24)) || SAID_BEFORE.test(text.slice(Math.max(0, t.offset.start - 30), t.offset.start));
const UNCOMMON_TAGS = new Set(['ProperNoun', 'Noun', 'Singular']);
/** A capitalised word compromise reads only as a (proper) noun: no verb, adjective, pronoun … */
const nameLike = (t: CompromiseTerm): boolean => titled(t) && allowed(t) && t.tags.every((tag) => UNCOMMON_TAGS.has(tag) || PERSON_TAGS.has(tag));

/** The third parties' names in a text (each a span of its name words). */
export function findPeople(text: string, speakers: ReadonlySet<string> = new Set()): Span[] {
  if (!/\p{L}/u.test(text)) return [];
  const spans: Span[] = [];
  const sentences = nlp(text).json({ offset: true, terms: { offset: true } }) as CompromiseSentence[];
  for (const { terms } of sentences) {
    for (let i = 0; i < terms.length; i++) {
      const seed = terms[i];
      if (!seed || !(isPersonTerm(seed) || (nameLike(seed) && cued(text, seed)))) continue;
      let from = i;
      let to = i;
      while (from > 0 && extendsName(terms[from - 1] as CompromiseTerm) && joined(terms[from - 1] as CompromiseTerm, terms[from] as CompromiseTerm)) from--;
      while (to + 1 < terms.length) {
        const next = terms[to + 1] as CompromiseTerm;
        if (!(isPersonTerm(next) || extendsName(next)) || !joined(terms[to] as CompromiseTerm, next)) break;
        to++;
      }
      addRun(text, terms.slice(from, to + 1), speakers, spans);
      i = to;
    }
  }
  return spans;
}

function addRun(text: string, run: CompromiseTerm[], speakers: ReadonlySet<string>, spans: Span[]): void {
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
  const possessive = /['’]s$/i.exec(value);
  if (possessive) value = value.slice(0, -2);
  end = start + value.length;
  const words = nameKey(value).split(' ').filter(Boolean);
  if (words.length === 0 || words.every((w) => speakers.has(w))) return;
  // A name in lower case is taken only from a text in lower case throughout (automatic captions), and then only a known given name or two words.
  if (value === value.toLowerCase() && (!captionStyle(text) || (words.length === 1 && !run[0]?.tags.includes('FirstName')))) return;
  spans.push({ start, end, kind: 'person', value });
}
