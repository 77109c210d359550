/**
 * Typed questions with their answers, from what corpus people were really asked (../shared/data/
 * corpus, read in place: nothing here copies its text into the repository). Two kinds, both found
 * automatically in the Q/A turns of an episode:
 *
 * - yes/no: another speaker's turn ends with a question put to the person ("Do you…", "Would
 *   you…", "Have you…"; no "or", which offers alternatives) and the person's next turn starts with
 *   a clear "yes" or "no" (YES_START / NO_START) followed by at least MIN_REST_WORDS words. The
 *   expected answer is that first word; the mind is built from the episode with that word taken
 *   out of the answer (`stripped`), so it has to read the stance from what they said, as a panel
 *   question never asked in the interview would.
 * - number: a "how many / how long / how old / what year" question whose answer's first sentence
 *   states a number (memory/numbers.ts); expected: the first number stated there. The mind keeps
 *   the whole answer.
 *
 * People are the corpus's by split (train/corpus.ts `splitOf`); the episodes are taken in a seeded
 * order until MAX_EPISODES person-episodes hold a question. Deterministic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseTurns } from '../eval/interviews.ts';
import type { Question } from '../src/engines/questions.ts';
import { askedUnit, statedNumbers, TIME_UNITS, type AskedUnit, type StatedNumber } from '../src/memory/numbers.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import { splitSentences, termTokens } from '../src/memory/sentences.ts';
import type { Turn } from '../testkit/fixtures.ts';
import { CORPUS_DIR, corpusFiles, MIN_PERSON_WORDS, splitOf, type Split } from './corpus.ts';

/** A yes/no question about the person: it opens with an auxiliary verb and speaks to them ("you", "your"). */
const YES_NO_QUESTION = /^(?:do|did|does|would|will|have|had|has|are|were|should|is|was)\b(?=.*\byou(?:r|rs|rself)?\b)/i;
/** A request in the form of a question ("Can you tell us…", "Would you mind…"): "yes" accepts it, it answers nothing. */
const REQUEST = /^(?:can|could|will|would)\s+you\s+(?:mind|tell|talk|speak|explain|describe|walk|give|share|detail|elaborate|say|expand|go|help|introduce|mention|repeat|define|clarify|unpack|take|dig|break|paint|comment|summari[sz]e|remind)\b|\b(?:wanna|want\s+to)\s+(?:talk|say|share|add|mention)\b|\banything\s+(?:else\s+)?(?:to\s+add|you\s+want)/i;
/** A question about what was just said ("Is that what you mean?", "Does that answer your question?"): nothing a panel would ask. */
const ANAPHORIC = /^(?:is|was|does|did|has|would)\s+(?:that|this|it)\b/i;
/** Alternatives offered: not a yes/no question. */
const ALTERNATIVES = /\bor\b/i;
/** A clear yes or no at the start of an answer ("Yes, …", "No. …", "Absolutely."), with its trailing punctuation. */
const YES_START = /^(?:yes|yeah|yep|yup|absolutely|definitely|of course)\b[\s,.!;:—–-]*/i;
const NO_START = /^(?:no|nope|not really|never)\b[\s,.!;:—–-]*/i;
/** Starts that are no clear answer ("Yes and no", "Yeah, no", "No, yeah"). */
const HEDGED = /^(?:yes\s+and\s+no|yeah,?\s+no|no,?\s+yeah|yes,?\s+no|not\s+yet)\b/i;
const NUMBER_QUESTION = /^(?:how\s+(?:many|much|long|old)|what\s+year|in\s+what\s+year)\b/i;

/** An age is below this. */
const MAX_AGE = 120;
/** Enough words after the "yes"/"no" to hold a stance: a bare "No." says nothing the mind could read. */
export const MIN_REST_WORDS = 8;
/** A question worth asking a panel: at least this many content words (not "Do you know?"). */
export const MIN_QUESTION_STEMS = 2;
/** Person-episodes used (each one is a mind to embed): bounds the fitting's embedding cost. */
export const MAX_EPISODES = 320;

export interface TypedCase {
  id: string;
  file: string;
  person: string;
  question: Question;
  expected: 'Yes' | 'No' | number;
}

export interface TypedEpisode {
  file: string;
  person: string;
  split: Split;
  /** The episode's turns as the mind is built from them (labelled answers' first word taken out). */
  turns: Turn[];
  cases: TypedCase[];
}

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** The last sentence of a turn, when it is a question. */
function lastQuestion(text: string): string | null {
  const last = (splitSentences(text).at(-1) ?? '').trim();
  return last.endsWith('?') ? last : null;
}

/** The cases of one person in one episode, and their turns with each yes/no answer's first word taken out. */
function episodeCases(file: string, turns: readonly Turn[], person: string): { turns: Turn[]; cases: TypedCase[] } {
  const out = turns.map((t) => ({ ...t }));
  const cases: TypedCase[] = [];
  turns.forEach((t, i) => {
    const next = turns[i + 1];
    if (!next || next.speaker !== person || t.speaker === person) return;
    const question = lastQuestion(t.text);
    if (!question || termTokens(question).length < MIN_QUESTION_STEMS) return;
    const answer = next.text.trim();
    const id = `${file}#${i}`;
    if (YES_NO_QUESTION.test(question) && !REQUEST.test(question) && !ANAPHORIC.test(question) && !ALTERNATIVES.test(question) && !HEDGED.test(answer)) {
      const start = YES_START.exec(answer) ?? NO_START.exec(answer);
      const rest = start ? answer.slice(start[0].length) : '';
      if (!start || words(rest) < MIN_REST_WORDS) return;
      const expected = YES_START.test(answer) ? 'Yes' : 'No';
      out[i + 1] = { ...next, text: rest.charAt(0).toUpperCase() + rest.slice(1) };
      cases.push({ id, file, person, question: { id, text: question, type: 'single', options: ['Yes', 'No'] }, expected });
      return;
    }
    if (NUMBER_QUESTION.test(question)) {
      const value = firstNumber(splitSentences(answer)[0] ?? '', askedUnit(question));
      if (value !== null) cases.push({ id, file, person, question: { id, text: question, type: 'number' }, expected: value });
    }
  });
  return { turns: out, cases };
}

/**
 * The first number of a sentence stated as what the question counts: a year for "what year", a
 * number followed by a unit of time for "how long", by the question's own unit word for "how many
 * <unit>" (its first three letters, so "people"/"person" and "years"/"year" meet); null if none.
 */
function firstNumber(sentence: string, unit: AskedUnit): number | null {
  const stated = statedNumbers(sentence).filter((n) => n.digits || !['one', 'a', 'an'].includes(n.text.toLowerCase()));
  const root = (w: string | undefined): string => (w ?? '').slice(0, 3);
  const fits = (n: StatedNumber): boolean => {
    if (unit.year) return n.digits && n.value >= 1900 && n.value <= 2100;
    if (unit.age) return n.digits && n.value < MAX_AGE;
    if (unit.duration) return TIME_UNITS.includes(n.after[0] ?? '');
    if (unit.words.length > 0) return root(n.after[0]) === root(unit.words[0]);
    return unit.money ? n.money : false;
  };
  return stated.find(fits)?.value ?? null;
}

/** Person-episodes of `split` holding typed cases, in the seeded order, at most `max`. */
export function typedEpisodes(seed: number, split: Split, max = MAX_EPISODES, dir = CORPUS_DIR): TypedEpisode[] {
  const random = seededRandom(seed);
  const order = corpusFiles(dir)
    .map((f) => ({ f, r: random() }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.f);
  const episodes: TypedEpisode[] = [];
  for (const file of order) {
    if (episodes.length >= max) break;
    const turns = parseTurns(fs.readFileSync(path.join(dir, file), 'utf8'));
    const spoken = new Map<string, number>();
    for (const t of turns) spoken.set(t.speaker, (spoken.get(t.speaker) ?? 0) + words(t.text));
    for (const [person, n] of spoken) {
      if (n < MIN_PERSON_WORDS || splitOf(person, seed) !== split || episodes.length >= max) continue;
      const found = episodeCases(file, turns, person);
      if (found.cases.length > 0) episodes.push({ file, person, split, ...found });
    }
  }
  return episodes;
}
