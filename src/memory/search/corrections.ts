/**
 * Corrections as a memory of their own kind (issue 32): what the person would really say to a
 * scenario, written by them or the account. A correction's scenario is embedded with the same
 * sentence encoder as the transcript's passages and searched with them on every simulation: it
 * answers the scenario asked when the two scenarios are near enough in the encoder's space (the
 * same question, or a paraphrase of it). Then the correction leads the answer and its evidence
 * (engines/corrected.ts); otherwise it changes nothing.
 */
import { dot } from '../vector-math.ts';
import { splitScenario } from './scenario.ts';

/** A correction as the search sees it (domain/correction.ts keeps the rest). */
export interface CorrectionMemory {
  id: string;
  scenario: string;
  answer: string;
}

/** A correction that answers the scenario asked, with the cosine of the two scenarios. */
export interface CorrectionMatch {
  correction: CorrectionMemory;
  similarity: number;
}

import { CORRECTION_SIMILARITY, CORRECTION_CONFIDENCE } from '../tuning.ts';
export { CORRECTION_SIMILARITY, CORRECTION_CONFIDENCE };

/** The same scenario written alike (case, spaces and end punctuation aside): a match without the encoder. */
export const sameScenario = (a: string, b: string): boolean => normalised(a) === normalised(b);
const normalised = (s: string): string => s.toLowerCase().replace(/[\s?!.]+/g, ' ').trim();

/** What a correction's scenario is compared by: its whole text and its ask alone (search/scenario.ts). */
export const correctionTexts = (c: CorrectionMemory): [string, string] => [c.scenario.trim(), splitScenario(c.scenario).ask.trim()];

/**
 * The corrections that answer the scenario, best first: those whose similarity with the asked one
 * (`asked`, a unit vector; `vectors[i]` the unit vectors of correctionTexts(corrections[i])) reaches
 * CORRECTION_SIMILARITY, and any written exactly alike (similarity 1).
 */
export function matchingCorrections(
  scenario: string,
  asked: Float32Array,
  corrections: readonly CorrectionMemory[],
  vectors: ReadonlyArray<readonly Float32Array[]>,
  threshold = CORRECTION_SIMILARITY,
): CorrectionMatch[] {
  const out: CorrectionMatch[] = [];
  corrections.forEach((correction, i) => {
    const cosines = (vectors[i] ?? []).map((v) => dot(asked, v));
    const similarity = sameScenario(scenario, correction.scenario) ? 1 : Math.max(0, ...cosines);
    if (similarity >= threshold) out.push({ correction, similarity: Math.min(1, similarity) });
  });
  // Best first; among equals the newest correction (the latest word of the person) first.
  return out.sort((a, b) => b.similarity - a.similarity || corrections.indexOf(b.correction) - corrections.indexOf(a.correction));
}
