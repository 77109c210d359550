/**
 * Corrections as a memory of their own kind (issue 32): what the person would really say to a
 * scenario, written by them or the account. A correction's scenario is embedded with the same
 * sentence encoder as the transcript's passages and searched with them on every simulation: it
 * answers the scenario asked when the two scenarios are near enough in the encoder's space (the
 * same question, or a paraphrase of it). Then the correction leads the answer and its evidence
 * (engines/corrected.ts); otherwise it changes nothing.
 */
import { dot } from '../vector-math.ts';

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
 * The cosine between the scenario asked and a correction's scenario (whole texts, USE lite) above
 * which the correction answers it. Chosen by `npm run eval:correction-similarity` on 110 validation
 * people of the corpus split (seed 20261126; never test people, never the 22 interviews): each of
 * their interviewer's questions against three paraphrases of itself (eval/paraphrases.ts) and
 * against the same person's other questions. At 0.60, 95.5% of paraphrases match their question
 * and 1.2% of other questions pass (the nearest one per paraphrase); see EVAL.md, "Issue 32: corrections".
 */
export const CORRECTION_SIMILARITY = 0.6;

/**
 * How often a paraphrase's best correction above the threshold is its own question's, in the same
 * measurement: the confidence of an answer led by a correction (its answer is the person's own).
 */
export const CORRECTION_CONFIDENCE = 0.97;

/** The same scenario written alike (case, spaces and end punctuation aside): a match without the encoder. */
export const sameScenario = (a: string, b: string): boolean => normalised(a) === normalised(b);
const normalised = (s: string): string => s.toLowerCase().replace(/[\s?!.]+/g, ' ').trim();

/**
 * The corrections that answer the scenario, best first: those whose scenario's cosine with the
 * asked one (`asked`, a unit vector; `vectors[i]` the unit vector of `corrections[i].scenario`)
 * reaches CORRECTION_SIMILARITY, and any written exactly alike (similarity 1).
 */
export function matchingCorrections(
  scenario: string,
  asked: Float32Array,
  corrections: readonly CorrectionMemory[],
  vectors: readonly Float32Array[],
  threshold = CORRECTION_SIMILARITY,
): CorrectionMatch[] {
  const out: CorrectionMatch[] = [];
  corrections.forEach((correction, i) => {
    const v = vectors[i];
    const similarity = sameScenario(scenario, correction.scenario) ? 1 : v ? dot(asked, v) : 0;
    if (similarity >= threshold) out.push({ correction, similarity: Math.min(1, similarity) });
  });
  // Best first; among equals the newest correction (the latest word of the person) first.
  return out.sort((a, b) => b.similarity - a.similarity || corrections.indexOf(b.correction) - corrections.indexOf(a.correction));
}
