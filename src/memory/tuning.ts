/**
 * The engine's numbers that are not fitted by `npm run train` (those live in params/ranking.json),
 * each named with the measurement or source behind it. Nothing else in src/memory or src/engines
 * holds an inline tuning number for ranking, passage choice or confidence.
 */

/**
 * The unit the encoder embeds: a passage of consecutive sentences of one answer, cut at about this
 * many words. Three spoken sentences (~13 words each): 3-sentence windows put the right passage in
 * the top 3 for 52% of eval/scenarios with plain cosine, against 41% for BM25 over the same windows
 * (issue 22's measurement); the encoder's cost per word is flat from 10 to 60 words (0.42–0.47 ms per
 * word on TF.js wasm, this machine, BENCHMARKS.md), so the unit does not change the cost of a snapshot.
 */
export const PASSAGE_WORDS = 40;
/** A passage shorter than this share of PASSAGE_WORDS at an answer's end joins the one before it. */
export const PASSAGE_TAIL_SHARE = 0.5;

/**
 * Below this confidence the reply admits the quote is only the closest thing the person said. With
 * the calibrated confidence (answer/confidence.ts) it means: the quoted passage answers the scenario
 * about a third of the time or less. A product line, kept from before the confidence was calibrated.
 */
export const LOW_CONFIDENCE = 0.35;
/**
 * The legacy retrieval's decline line (minds without passage vectors, memory/retrieval.ts): its
 * hand-fitted confidence under this means nothing the person said bears on the ask. The learned
 * search uses the fitted `declineBelow` of params/ranking.json instead.
 */
export const LEGACY_DECLINE_BELOW = 0.05;
/**
 * The saying's length: up to twice the person's median answer, within these bounds (words). The
 * passage ends with its answer anyway, so this mostly lets a whole answer through; measured on
 * held-out answers (`npm run eval`), shorter cuts lost content F1 and discrimination both.
 */
export const SAYING_MIN_WORDS = 60;
export const SAYING_MAX_WORDS = 300;
export const SAYING_LENGTH_FACTOR = 2;
/**
 * Answers beyond the best one whose passages are evidence (and feed acting): the scenario suite
 * counts the right passage within the top 3 evidence items (eval/scenarios/README.md).
 */
export const MORE_ANSWERS = 2;
/** A runner-up answer's passage, and each passage of the LLM's prompt: about this many words (two of the person's median answers in the 22 interviews). */
export const RUNNER_UP_WORDS = 120;
/** Passages that lead the LLM's prompt: the best five answers (the rest of the transcript follows them). */
export const PROMPT_PASSAGES = 5;
/**
 * The confidence model reads the mean of this many best passage cosines with the ask (next to the
 * best one): a person who talked about the subject has several passages near it, an off-topic
 * scenario at most one by chance. Five: the passages of one typical answer (~200 words).
 */
export const TOP_COSINES = 5;
