/**
 * How scores and confidences are reported: clamped to [0, 1] where they are probabilities or
 * relevances, rounded to three decimals (a model's estimates to two). Here and nowhere else.
 */

/** A score to three decimals. */
export const roundScore = (n: number): number => Math.round(n * 1000) / 1000;

/** A model's estimate (a Big Five trait) to two decimals: a third would claim a precision it has not. */
export const roundEstimate = (n: number): number => Math.round(n * 100) / 100;

/** A score within [0, 1] (a cosine, a model's stated confidence); not a number reads as `fallback`. */
export const unitScore = (n: number, fallback = 0): number => Math.min(1, Math.max(0, Number.isFinite(n) ? n : fallback));
