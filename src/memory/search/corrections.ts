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

/**
 * The similarity above which a correction answers the scenario asked: the larger cosine (USE lite)
 * of the scenario asked, whole, with the correction's scenario whole and with its ask alone (the
 * scenario read as search/scenario.ts reads it: someone asking again often drops the lead-in).
 * Chosen by `npm run eval:correction-similarity` on the 110 validation people of the corpus split
 * (seed 20261126; never test people, never the 22 interviews): 1,364 interviewer's questions, each
 * asked in three paraphrases (eval/paraphrases.ts), 4,092 in all. At 0.80, 98.4% of paraphrases
 * reach their own question and for 0.2% the nearest of the person's other questions passes too
 * (0.75: 99.0% and 1.7%; 0.85: 96.7% and 0.0%). With the whole scenario alone, 0.80 reaches 86.3%.
 */
export const CORRECTION_SIMILARITY = 0.8;

/**
 * The confidence of an answer led by a correction (its answer is the person's own): in the same
 * measurement, the best correction above the threshold is the paraphrase's own 100.0% of the time
 * (rounded); 0.99 leaves room for what 4,092 paraphrases did not show.
 */
export const CORRECTION_CONFIDENCE = 0.99;

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
