/**
 * Stance for typed answers: how a person feels about what a question asks, from wink-nlp's
 * sentiment of their sentences (negation-aware: "I don't love it" reads negative), and which way
 * a likert scale runs from the meaning of its labels ("strongly disagree" … "strongly agree",
 * "not at all" … "very much"). Deterministic.
 */
import type { MindMemory } from './mind-memory.ts';
import { sentimentOf } from './sentences.ts';

/** Per mind, each sentence's sentiment, read once (a panel asks many questions of one mind). */
const sentiments = new WeakMap<MindMemory, Map<number, number>>();

export function sentenceSentiment(mind: MindMemory, doc: number): number {
  let perMind = sentiments.get(mind);
  if (!perMind) sentiments.set(mind, (perMind = new Map()));
  let s = perMind.get(doc);
  if (s === undefined) perMind.set(doc, (s = sentimentOf(mind.memories[doc]?.text ?? '')));
  return s;
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
  const words = (low ? -0.5 : 0) + (high && !low ? 0.5 : 0);
  return words !== 0 ? words + 0.5 * sentimentOf(label) : sentimentOf(label);
}

/** True when the labels run from high to low (labels[0], the scale's min, is the most positive). */
export function labelsDescend(labels: readonly string[] | undefined): boolean {
  if (!labels || labels.length < 2) return false;
  return labelPolarity(labels[0] ?? '') > labelPolarity(labels[labels.length - 1] ?? '') + 0.1;
}

/** A question asking about something negative ("How much do you dislike…", "How worried are you…"): a high point means a negative stance. */
export function asksNegatively(question: string): boolean {
  return /\b(dislike|hate|worr(y|ied)|afraid|fear|frustrat\w*|annoy\w*|stress\w*|regret\w*|anxious|concern(ed)?|tired of|bother\w*)\b/i.test(question);
}
