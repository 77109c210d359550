/**
 * Stated behaviours: sentences where the person says what they do ("I always …", "I usually …",
 * "I would …", "I never …"). Used by the persona profile and by the offline engine's `acting`.
 */

const STRONG_HABIT_RE =
  /\b(I|we)\s+(always|usually|normally|typically|generally|never|tend to|make sure|make a point|refuse|insist)\b/i;
const HABIT_RE = /\b(I|we)\s+(often|rarely|seldom|sometimes|try to|like to|prefer|avoid)\b/i;
const WOULD_RE =
  /\b(I|we)(?:'d| would|'ll| will| won't| don't| do not)\s+(?!say|think|guess|imagine|argue|suggest|know|remember|care|mean|see|want to say)\w+/i;

export type BehaviourKind = 'always' | 'usually' | 'sometimes' | 'never' | 'would';

/** How strongly a sentence states a habit: 3 "I always/never…", 2 "I often/try to…", 1 "I would/won't…", 0 none. */
export function behaviourStrength(text: string): number {
  if (STRONG_HABIT_RE.test(text)) return 3;
  if (HABIT_RE.test(text)) return 2;
  return WOULD_RE.test(text) ? 1 : 0;
}

/** The kind of a stated behaviour, or null when the sentence states none. */
export function behaviourKind(text: string): BehaviourKind | null {
  const strong = STRONG_HABIT_RE.exec(text)?.[2]?.toLowerCase();
  if (strong) {
    if (strong === 'never' || strong === 'refuse') return 'never';
    return strong === 'always' || strong === 'make sure' || strong === 'make a point' || strong === 'insist' ? 'always' : 'usually';
  }
  const habit = HABIT_RE.exec(text)?.[2]?.toLowerCase();
  if (habit) return habit === 'rarely' || habit === 'seldom' || habit === 'avoid' ? 'never' : habit === 'often' ? 'usually' : 'sometimes';
  const would = WOULD_RE.exec(text)?.[0]?.toLowerCase() ?? '';
  if (!would) return null;
  return /won't|don't|do not/.test(would) ? 'never' : 'would';
}
