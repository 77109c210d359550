/**
 * yes/no questions, offline (grounded-choices.ts): how one sentence the person said answers the
 * question's proposition. "Would you hire a self-taught engineer?" read against "I don't care much
 * about which university someone went to, and two of the best engineers I've worked with were
 * self-taught" is a yes: the negation stands in a clause that does not speak of the subject.
 *
 * 1. The clause that says most of the question's subject words (memory/stance.ts `clausesOf`).
 * 2. Its negations against the question's own ("Do you merge pull requests without a test?" read
 *    against "I never merge a pull request without a test": two against one, a no).
 * 3. For a question of judgement ("Do you like…", "Is it worth…"), the clause's sentiment when it
 *    is clear (at least `minStance`) decides instead ("pod machines are a waste": a no).
 * 4. Optionally (`ssrWeight` > 0, fitted: src/memory/params/typed.json), the encoder's reading of
 *    the whole passage, Semantic Similarity Rating (arXiv 2510.08338): its cosine with a "yes"
 *    anchor ("Yes, I would hire a self-taught engineer.") minus that with a "no" anchor ("No, I
 *    would not hire…"), added to the clause's reading with that weight.
 */
import type { MindMemory } from '../memory/mind-memory.ts';
import { stemsOfText } from '../memory/answer/phrase-matcher.ts';
import { sentimentOf } from '../memory/sentences.ts';
import { clausesOf, negationCount } from '../memory/stance.ts';
import type { Prepared } from './grounded-question-parts.ts';

/** A question that asks for a judgement rather than a fact: its answer is a stance. */
export const JUDGEMENT_RE = /\b(?:like|love|enjoy|hate|dislike|prefer|recommend|worth|good|bad|better|worse|great|happy|agree|favou?r|fan|trust|believe|think|important|useful|fun|hard|easy|miss|regret)\b/i;

/** A negative question's leading auxiliary ("Don't you think…?", "Isn't it…?"): it asks for a yes. */
const LEADING_NEGATIVE_RE = /^\s*\w+n't\b/i;

/** The negations of a question's own proposition ("…without a test?": 1), a rhetorical leading "Don't you" aside. */
export const questionNegations = (question: string): number => negationCount(question.replace(LEADING_NEGATIVE_RE, ''));

/** Auxiliaries that open a yes/no question, with the affirmative and negative forms of "I <aux>". */
const AUX: Record<string, [string, string]> = {
  do: ['I do', 'I do not'],
  did: ['I did', 'I did not'],
  would: ['I would', 'I would not'],
  will: ['I will', 'I will not'],
  can: ['I can', 'I cannot'],
  could: ['I could', 'I could not'],
  have: ['I have', 'I have not'],
  had: ['I had', 'I had not'],
  are: ['I am', 'I am not'],
  were: ['I was', 'I was not'],
  should: ['I should', 'I should not'],
};

/** "your" → "my", "you" → "me": the question's rest as the person would say it. */
const firstPerson = (text: string): string =>
  text
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, 'me');

/**
 * The "yes" and "no" anchor statements of a yes/no question, in the person's voice: "Would you hire
 * a self-taught engineer?" → "Yes, I would hire a self-taught engineer." / "No, I would not hire a
 * self-taught engineer."; a question not put as "<aux> you …" gets "Yes." / "No." before it.
 */
export function yesNoAnchors(question: string): [string, string] {
  const q = question.trim().replace(/[?.!\s]+$/, '');
  const m = /^(\w+)\s+you\s+(.+)$/i.exec(q);
  const forms = m ? AUX[(m[1] ?? '').toLowerCase()] : undefined;
  if (!m || !forms) return [`Yes. ${q}.`, `No. ${q}.`];
  const rest = firstPerson(m[2] ?? '');
  return [`Yes, ${forms[0]} ${rest}.`, `No, ${forms[1]} ${rest}.`];
}

/** The clause of a sentence that says most of the subject's stems (the first of equals), and how many it says. */
export function subjectClause(text: string, subject: readonly string[]): { clause: string; said: number } {
  let best = { clause: text, said: -1 };
  for (const clause of clausesOf(text)) {
    const stems = stemsOfText(clause);
    const said = subject.filter((s) => stems.has(s)).length;
    if (said > best.said) best = { clause, said };
  }
  return best.said > 0 ? best : { clause: text, said: 0 };
}

/**
 * The sentiment of sentence `doc` toward `subject`: that of its clause that says most of the subject
 * when it is clear (at least `minStance`: "I never drink decaf and I think pod machines are a waste"
 * is negative about pod machines), else the whole sentence's ("I've worked from home since 2019 and
 * I'm far more productive there"), read once per mind.
 */
export function clauseSentiment(mind: MindMemory, doc: number, subject: readonly string[], minStance: number): number {
  const text = mind.memories[doc]?.text ?? '';
  const whole = mind.reading(doc).sentiment;
  const { clause } = subjectClause(text, subject);
  if (clause === text) return whole;
  const own = sentimentOf(clause);
  return Math.abs(own) >= minStance ? own : whole;
}

/** How the sentence `doc` answers the question: +1 yes, −1 no (see the module comment). */
export function yesNoOf(mind: MindMemory, doc: number, p: Prepared, minStance: number, ssrWeight: number, passage: number | undefined): 1 | -1 {
  const text = mind.memories[doc]?.text ?? '';
  const { clause } = subjectClause(text, p.subject.stems);
  let reading = (negationCount(clause) + p.negations) % 2 === 0 ? 1 : -1;
  if (p.judgement) {
    const own = clauseSentiment(mind, doc, p.subject.stems, minStance);
    if (Math.abs(own) >= minStance) reading = (own > 0 ? 1 : -1) * (p.negations % 2 === 0 ? 1 : -1);
  }
  const lean = ssrWeight > 0 ? ssrLean(mind, p, passage) : 0;
  return reading + ssrWeight * lean >= 0 ? 1 : -1;
}

/** SSR: cos(passage, yes anchor) − cos(passage, no anchor); 0 without the vectors. */
export function ssrLean(mind: MindMemory, p: Prepared, passage: number | undefined): number {
  const passages = mind.passages;
  if (!p.anchors || !passages || passage === undefined) return 0;
  return passages.similarityOf(p.anchors[0], passage) - passages.similarityOf(p.anchors[1], passage);
}
