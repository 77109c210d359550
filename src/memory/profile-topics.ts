/**
 * Topics: the subjects a person talks about — nouns and noun phrases ("open source",
 * "mobile-first design", "metrics") found with wink-nlp's part-of-speech tags, keyed by the
 * lemma of their head noun ("teams" → "team") so snapshots merge.
 *
 * wink's tokeniser splits "it's" and "don't" but leaves "I'm" whole and tags it PROPN, and it
 * tags "gonna" or "wanna" NOUN: word-shape and word-list guards keep pronouns, contractions,
 * numbers, fillers and generic nouns ("thing", "way", "lot") out, whatever the tags say.
 * Pure functions (deterministic).
 */
import type { Document } from 'wink-nlp';
import { readDocStable, wink } from './sentences.ts';
import { PHRASE_WORD_WEIGHT } from './tuning.ts';

const list = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Never a topic nor part of one, whatever wink's tag: pronouns, contractions written without apostrophe, fillers, number words. */
const BLOCKED = list(`
  i me my mine myself you your yours yourself yourselves we us our ours ourselves they them their theirs themselves
  he him his himself she her hers herself it its itself this that these those who whom whose what which someone somebody
  everyone everybody anyone anybody nobody noone none one ones something anything everything nothing
  im ive id ill youre youve youd youll were weve wed theyre theyve theyd hes shes its thats whats theres heres lets
  dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent havent hasnt hadnt aint
  gonna wanna gotta kinda sorta dunno lemme gimme yeah yes yep yup nope no ok okay oh ah uh um umm hmm mm mhm huh wow hey hi
  hello bye thanks thank please like well right sure cool lol etc
  zero two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred hundreds thousand
  thousands million millions billion billions half dozen
`);
/** Nouns too general to be a subject, alone or heading a phrase. */
const GENERIC = list(`
  thing things way ways time times lot lots people person persons kind kinds sort sorts stuff bit bits year years day days
  week weeks month months today tonight yesterday tomorrow moment moments point points part parts question questions answer
  guy guys folks place places end fact facts number numbers idea ideas side sides case cases couple reason reasons sense
  example examples bunch type types piece pieces aspect aspects level levels term terms matter matters deal lots whatever
  minute minutes second seconds hour hours percent percentage anyway somewhere everywhere
  long-term short-term full-time part-time
`);
/** Nouns too vague alone that can head or join a phrase ("remote work", "civic tech space"). */
const WEAK = list('work life world job space area stage role step approach story situation problem issue thought feeling');
/** Adjectives and quantifiers that say nothing about the subject: not kept in a phrase ("great team" → "team"). */
const VAGUE = list(`
  good great big little huge tiny whole real certain different same other main new old nice bad best better worse worst
  many much few several various entire particular specific actual true important interesting amazing awesome cool hard easy
  able sure super pretty long short high low full last next own only such enough lot lots fine crazy funny weird basic
  general overall total simple obvious clear quick slow
`);

/** After these a word tagged NOUN is a verb wink mistook ("I hate surprises", "we build Open Collective"). */
const BEFORE_VERB = list("i you we they he she who can could will would shall should may might must 'll 'd wo ca");

const WORD_RE = /^\p{L}[\p{L}-]*\p{L}$/u;
const ACRONYM_RE = /^\p{Lu}{2,5}s?$/u;

interface Unit {
  text: string;
  normal: string;
  lemma: string;
  noun: boolean;
  proper: boolean;
  /** An adjective or a hyphenated compound: can modify a noun. */
  modifier: boolean;
  stop: boolean;
}

/** One noun (phrase) found in a sentence: its key, surface form and place in the sentence's units. */
export interface Candidate {
  key: string;
  surface: string;
  words: number;
  from: number;
  to: number;
}

/** True for a word that can never be a topic nor part of one (pronoun, contraction, number, filler). */
export function blockedWord(word: string): boolean {
  const w = word.toLowerCase();
  return /['’\d]/u.test(w) || BLOCKED.has(w) || !WORD_RE.test(w);
}

/** Tokens with hyphenated compounds joined ("mobile - first" → "mobile-first"), as units. */
function unitsOf(doc: Document): Unit[] {
  const { its } = wink();
  const tokens = doc.tokens();
  const texts = tokens.out() as string[];
  const normals = tokens.out(its.normal) as string[];
  // wink-nlp's typings declare its.lemma with a signature `out` does not accept; it works at run time.
  const lemmas = tokens.out(its.lemma as unknown as typeof its.normal) as string[];
  const pos = tokens.out(its.pos) as string[];
  const stops = tokens.out(its.stopWordFlag) as boolean[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const units: Unit[] = [];
  for (let i = 0; i < texts.length; i++) {
    const tag = pos[i] ?? '';
    const unit: Unit = {
      text: texts[i] ?? '',
      normal: normals[i] ?? '',
      lemma: lemmas[i] ?? '',
      noun: tag === 'NOUN' || tag === 'PROPN',
      proper: tag === 'PROPN',
      modifier: tag === 'ADJ',
      stop: Boolean(stops[i]),
    };
    const hyphen = units[units.length - 1];
    const first = units[units.length - 2];
    const compound = hyphen?.text === '-' && spaces[i - 1] === '' && spaces[i] === '' && first && /^\p{L}[\p{L}-]*$/u.test(first.normal);
    if (compound && /^\p{L}+$/u.test(unit.normal)) {
      const merged = { ...unit, text: `${first.text}-${unit.text}`, normal: `${first.normal}-${unit.normal}`, lemma: `${first.normal}-${unit.lemma}`, modifier: true, stop: false };
      units.splice(-2, 2, merged);
      continue;
    }
    units.push(unit);
  }
  return units;
}

/** Can this unit be part of a noun phrase (as modifier or head)? */
function content(u: Unit): boolean {
  if (!u.noun && !u.modifier) return false;
  if (GENERIC.has(u.normal) || VAGUE.has(u.normal)) return false;
  if (ACRONYM_RE.test(u.text) && u.noun && !BLOCKED.has(u.normal)) return true;
  return !u.stop && !blockedWord(u.normal) && u.normal.length >= 3;
}

/** Key of a phrase: its words' normal forms, the head noun lemmatised ("design systems" → "design system"). */
function keyOf(units: readonly Unit[]): string {
  return units.map((u, i) => (i === units.length - 1 && u.noun && WORD_RE.test(u.lemma) ? u.lemma : u.normal)).join(' ');
}

/** Surface form: lower case, but a proper noun keeps its capitals, and so do capitalised words beside one ("Lambda School"). */
function surfaceOf(units: readonly Unit[]): string {
  const proper = units.some((u) => u.proper && u.text !== u.normal);
  return units.map((u) => (proper && u.text !== u.normal && (u.proper || /^\p{Lu}/u.test(u.text)) ? u.text : u.normal)).join(' ');
}

/**
 * Nouns and noun phrases of a sentence: every span of up to 3 content words (nouns, adjectives,
 * hyphenated compounds) that ends in a noun, except a weak noun alone; `phrases` are the longest
 * such runs; `sentiment` is wink-nlp's, in [-1, 1] (read from the same parse).
 */
export function readSentence(text: string): { candidates: Candidate[]; phrases: string[]; sentiment: number } {
  const { nlp, its } = wink();
  const doc = readDocStable(nlp, text);
  const units = unitsOf(doc);
  const candidates: Candidate[] = [];
  const phrases: string[] = [];
  let start = 0;
  const flush = (end: number) => {
    let last = end - 1;
    while (last >= start && !units[last]?.noun) last--;
    if (last - start >= 1) phrases.push(keyOf(units.slice(Math.max(start, last - 2), last + 1)));
    for (let to = start; to <= last; to++) {
      if (!units[to]?.noun) continue;
      for (let from = Math.max(start, to - 2); from <= to; from++) {
        const span = units.slice(from, to + 1);
        if (span.length === 1 && WEAK.has(span[0]?.normal ?? '')) continue;
        candidates.push({ key: keyOf(span), surface: surfaceOf(span), words: span.length, from, to });
      }
    }
  };
  units.forEach((u, i) => {
    const verb = u.noun && !u.proper && BEFORE_VERB.has(units[i - 1]?.normal ?? '');
    if (content(u) && !verb) return;
    flush(i);
    start = i + 1;
  });
  flush(units.length);
  return { candidates, phrases, sentiment: Number(doc.out(its.sentiment)) || 0 };
}

/** The topic key of a label from a version-1 profile (one noun), or null when it is not a subject ("i'm", "wanna"). */
export function legacyTopicKey(label: string, key: string): string | null {
  if (blockedWord(label) || GENERIC.has(label) || WEAK.has(label)) return null;
  const found = readSentence(label).candidates.find((c) => c.words === 1);
  return found ? found.key : key;
}

/** Rank of a topic: its mentions, a recurring phrase weighing more than a single noun ("host organization" over "host"). */
export const topicRank = (mentions: number, words: number) => mentions * (1 + PHRASE_WORD_WEIGHT * (Math.min(3, words) - 1));

export interface TopicPick {
  key: string;
  /** Indexes of the sentences whose mentions it claimed. */
  sentences: number[];
  /** Surface forms and how often each was seen. */
  forms: Map<string, number>;
  words: number;
}

/** Phrases taken at most: later ones are mentioned less than all those before. */
const MAX_PHRASES = 60;

interface Occurrence {
  sentence: number;
  candidate: Candidate;
  alive: boolean;
}

/**
 * Choose topics among the sentences' candidates. A noun phrase that recurs (in `minMentions`
 * sentences) is preferred to the nouns inside it: phrases are taken first, most mentioned first,
 * and each claims its mentions from the overlapping shorter spans ("design system" leaves
 * "design" only its other mentions); single nouns come after, with what is left.
 */
export function pickTopics(perSentence: ReadonlyArray<readonly Candidate[]>, minMentions: number): TopicPick[] {
  const byKey = new Map<string, Occurrence[]>();
  const bySentence: Occurrence[][] = perSentence.map((cands, sentence) =>
    cands.map((candidate) => {
      const o = { sentence, candidate, alive: true };
      const occ = byKey.get(candidate.key);
      if (occ) occ.push(o);
      else byKey.set(candidate.key, [o]);
      return o;
    }),
  );
  const mentions = (occ: readonly Occurrence[]) => new Set(occ.filter((o) => o.alive).map((o) => o.sentence)).size;
  const picks: TopicPick[] = [];
  const taken = new Set<string>();
  const take = (key: string, occ: readonly Occurrence[]) => {
    taken.add(key);
    const live = occ.filter((o) => o.alive);
    const forms = new Map<string, number>();
    for (const o of live) {
      forms.set(o.candidate.surface, (forms.get(o.candidate.surface) ?? 0) + 1);
      for (const other of bySentence[o.sentence] ?? []) {
        if (other !== o && other.candidate.from <= o.candidate.to && o.candidate.from <= other.candidate.to) other.alive = false;
      }
    }
    picks.push({ key, sentences: [...new Set(live.map((o) => o.sentence))].sort((a, b) => a - b), forms, words: live[0]?.candidate.words ?? 1 });
  };
  // Mentions only go down as phrases are taken: phrases short of minMentions at first never qualify.
  const phrases = [...byKey].filter(([, occ]) => (occ[0]?.candidate.words ?? 1) >= 2 && mentions(occ) >= minMentions);
  for (let round = 0; round < MAX_PHRASES; round++) {
    let best: { key: string; occ: Occurrence[]; n: number; words: number } | null = null;
    for (const [key, occ] of phrases) {
      const words = occ[0]?.candidate.words ?? 1;
      if (taken.has(key)) continue;
      const n = mentions(occ);
      if (n < minMentions) continue;
      if (!best || n > best.n || (n === best.n && (words > best.words || (words === best.words && key < best.key)))) best = { key, occ, n, words };
    }
    if (!best) break;
    take(best.key, best.occ);
  }
  for (const [key, occ] of [...byKey].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if ((occ[0]?.candidate.words ?? 1) === 1 && mentions(occ) >= minMentions) take(key, occ);
  }
  return picks;
}
