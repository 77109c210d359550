/**
 * Confidence that what the person said answers the scenario, from the retrieval signals: how
 * strongly the best answer matches the scenario's words (lexical) and meaning (semantic), and
 * how much of what the scenario is about (its nouns) the person never talked about, nor about
 * anything near it (topicUnknown).
 *
 * A logistic curve over those signals. Its weights are a logistic fit on the scenario suite's
 * on- and off-topic scenarios (eval/scenarios), rounded; the bias puts nine in ten off-topic
 * scenarios below 0.35, the line under which the reply says it is only the closest thing they
 * said. So it is a ranking (AUROC) first and a threshold second; the held-out questions of
 * `npm run eval` check it on questions it was not fitted on.
 */
import type { Signals } from './retrieval.ts';

/** Weights with the semantic index (hybrid retrieval). */
const HYBRID = { bias: -4.45, lexical: 11, semantic: 4, topicUnknown: -4 };
/** Weights for BM25 alone (RETRIEVAL_MODE=lexical, kept for comparison), fitted the same way. */
const LEXICAL_ONLY = { bias: 4.13, lexical: 5, semantic: 0, topicUnknown: -8 };
/** Confidence never claims certainty: the person might answer differently today. */
const CEILING = 0.95;

export function confidenceOf(s: Signals, semantic: boolean): number {
  const w = semantic ? HYBRID : LEXICAL_ONLY;
  const x = w.bias + w.lexical * s.lexical + w.semantic * s.semantic + w.topicUnknown * s.topicUnknown;
  return Math.round(Math.min(CEILING, 1 / (1 + Math.exp(-x))) * 1000) / 1000;
}
