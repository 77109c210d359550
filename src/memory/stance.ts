/**
 * Stance for typed answers: how a person feels about what a question asks, from wink-nlp's
 * sentiment of their sentences (negation-aware: "I don't love it" reads negative), and which way
 * a likert scale runs from the meaning of its labels ("strongly disagree" … "strongly agree",
 * "not at all" … "very much"), and which parts of a sentence a contrast or a negation marks as
 * preferred or set aside (`stanceParts`, for choosing among options). Deterministic.
 */
import type { MindMemory } from './mind-memory.ts';
import { sentimentOf } from './sentences.ts';
import { LABEL_SENTIMENT_SHARE, LABEL_WORD_POLARITY, LABELS_DESCEND_MARGIN, LESSER_NEGATIVE } from './tuning.ts';

/** A sentence's sentiment (negation-aware), read once per mind: the mind's own reading of it (MindMemory.reading). */
export function sentenceSentiment(mind: MindMemory, doc: number): number {
  return mind.reading(doc).sentiment;
}

/** A negation or refusal in a sentence ("no", "never", "don't", "wasn't"…): for yes/no options. */
export const NEGATION_RE = /\b(?:no|not|never|nope|nobody|nothing|neither|nor|none|without|n't|don't|doesn't|didn't|isn't|wasn't|weren't|aren't|haven't|hasn't|hadn't|can't|cannot|couldn't|won't|wouldn't|shouldn't)\b|n't\b/i;

export const isNegated = (text: string): boolean => NEGATION_RE.test(text);

/** Words that place a label low or high on a scale (wink's sentiment rates "not at all", "never" as 0). */
const LOW_WORDS = /\b(not|never|none|no|disagree|unlikely|dislike|hate|poor|bad|low|least|rarely|little|unimportant|unhappy|dissatisfied|worst)\b/i;
const HIGH_WORDS = /\b(agree|always|very|much|likely|love|like|excellent|high|most|often|important|happy|satisfied|best|completely|extremely|great)\b/i;

/** Where a scale label sits, roughly in [-1, 1]: its sentiment, else its low/high words. */
export function labelPolarity(label: string): number {
  const low = LOW_WORDS.test(label);
  const high = HIGH_WORDS.test(label);
  const words = (low ? -LABEL_WORD_POLARITY : 0) + (high && !low ? LABEL_WORD_POLARITY : 0);
  return words !== 0 ? words + LABEL_SENTIMENT_SHARE * sentimentOf(label) : sentimentOf(label);
}

/** True when the labels run from high to low (labels[0], the scale's min, is the most positive). */
export function labelsDescend(labels: readonly string[] | undefined): boolean {
  if (!labels || labels.length < 2) return false;
  return labelPolarity(labels[0] ?? '') > labelPolarity(labels[labels.length - 1] ?? '') + LABELS_DESCEND_MARGIN;
}

/** A question asking about something negative ("How much do you dislike…", "How worried are you…"): a high point means a negative stance. */
export function asksNegatively(question: string): boolean {
  return /\b(dislike|hate|worr(y|ied)|afraid|fear|frustrat\w*|annoy\w*|stress\w*|regret\w*|anxious|concern(ed)?|tired of|bother\w*)\b/i.test(question);
}

// ---- Stance within a sentence toward what it names (single and multiple choice) ----

/** A part of a sentence and how the person stands toward what it names: +1 preferred, −1 rejected or negated. */
export interface StancePart {
  text: string;
  polarity: 1 | -1;
}

/** "X instead of Y", "X rather than Y", "X versus Y", "X as opposed to Y", "more X than Y": X is preferred to Y. */
const CONTRAST_RE = /\b(?:instead\s+of|rather\s+than|as\s+opposed\s+to|versus|vs\.?|than)\s/i;
/** "not so much X as Y": Y is preferred. */
const NOT_SO_MUCH_RE = /\b(?:not|n't)\s+(?:so|as|that)\s+much\b(.*?)\bas\s+(?:much\s+as\s+)?(.*)$/i;
/** Comparatives that prefer what follows "than" ("less X than Y"). */
const LESSER_RE = /\b(?:less|worse|fewer)\b/i;
/** A negation that rejects what follows it, to the end of its clause ("I never drink decaf", "I don't care much about which university"). */
const REJECT_RE = /\b(?:not|never|no|don't|doesn't|didn't|isn't|wasn't|aren't|weren't|won't|wouldn't|can't|cannot|hardly|nor)\b|n't\b/i;
/** Negations that affirm ("without question", "no doubt", "not only"). */
const AFFIRMING_RE = /\b(?:without\s+(?:a\s+)?(?:question|doubt)|no\s+doubt|not\s+only|not\s+just|no\s+matter|can't\s+wait|couldn't\s+be\s+happier|never\s+regret\w*|can't\s+imagine\s+not)\b/gi;
/** Where the clause before a contrast starts. */
const CLAUSE_START_RE = /[;:]|\.\.\.|\bbut\b|\bhowever\b|\bbecause\b/i;
/** Where a clause ends for a negation's reach. */
const CLAUSE_END_RE = /[;:]|\bbut\b|\bhowever\b|\byet\b/i;

/**
 * The parts of a sentence whose stance is marked, for comparing the options a question offers:
 * what a contrast prefers (+1) and what it sets aside (−1) — flipped when the preferred part is
 * said negatively ("it's very difficult relying on storytelling instead of data") — and what a
 * negation covers (−1, to the end of its clause). Empty when nothing marks a stance.
 */
export function stanceParts(text: string, sentiment: (s: string) => number = sentimentOf): StancePart[] {
  const parts: StancePart[] = [];
  const notSoMuch = NOT_SO_MUCH_RE.exec(text);
  if (notSoMuch) {
    parts.push({ text: notSoMuch[1] ?? '', polarity: -1 }, { text: notSoMuch[2] ?? '', polarity: 1 });
    return parts;
  }
  const c = CONTRAST_RE.exec(text);
  if (c) {
    // What the contrast compares is local: the clause before the marker, to the end of the sentence after it.
    let before = text.slice(0, c.index).split(CLAUSE_START_RE).pop() ?? '';
    let after = text.slice(c.index + c[0].length);
    // "Instead of X, Y": X runs to the next comma.
    if (before.trim().split(/\s+/).filter(Boolean).length <= 1) {
      const comma = after.indexOf(',');
      if (comma > 0) [before, after] = [after.slice(comma + 1), after.slice(0, comma)];
    }
    const lesser = c[0].toLowerCase().startsWith('than') && LESSER_RE.test(before);
    const flip = lesser !== sentiment(before) < -LESSER_NEGATIVE;
    parts.push({ text: before, polarity: flip ? -1 : 1 }, { text: after, polarity: flip ? 1 : -1 });
    return parts;
  }
  const plain = text.replace(AFFIRMING_RE, ' ');
  const n = REJECT_RE.exec(plain);
  if (n) {
    const rest = plain.slice(n.index + n[0].length);
    const end = CLAUSE_END_RE.exec(rest);
    parts.push({ text: end ? rest.slice(0, end.index) : rest, polarity: -1 });
  }
  return parts;
}

// ---- A sentence's answer to a yes/no question (typed answers; eval/panels' contradiction check reads its own way) ----

/**
 * Where one clause of a spoken sentence ends and the next begins: ";", ":", a dash, "…", "but",
 * "because", "although", "whereas", and "and"/"so"/a comma when a new subject follows ("…went to,
 * and two of the best engineers…"). A comma inside a clause ("I never, ever check") does not end it.
 */
const CLAUSE_BREAK_RE =
  /\s*(?:[;:]|\s[—–-]\s|\.\.\.|…)\s*|\s*,?\s+(?:but|because|although|though|whereas|except\s+that)\s+|\s*,?\s+(?:and|so|yet|while)\s+(?=(?:I|I'm|I've|I'd|we|we're|we've|they|they're|he|she|it|it's|there|that's|this|two|one|some|most|many|all)\b)|\s*,\s+(?=(?:I|we|they|he|she|it|there|that's)\b)/i;

/** The clauses of a sentence, in order (the sentence itself when nothing splits it). */
export function clausesOf(text: string): string[] {
  return text
    .split(new RegExp(CLAUSE_BREAK_RE.source, 'gi'))
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Negations in a text that deny what follows them ("never", "not", "without", "n't"…), affirming ones aside ("without question", "not only"). */
export function negationCount(text: string): number {
  return [...text.replace(AFFIRMING_RE, ' ').matchAll(new RegExp(NEGATION_RE.source, 'gi'))].length;
}
