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
/**
 * How `feeling` reads a passage's sentiment (wink-nlp's, about −1…1 per sentence; spoken sentences
 * mostly within ±0.5): a sentence at or beyond ±FEELING_STRONG is a strong one; a passage with strong
 * sentences both ways and a mean within ±FEELING_MIXED is mixed; a mean at or beyond ±FEELING_LEANING
 * is positive or uneasy, else calm. Product wording for the four words `feeling` starts with, not
 * fitted to any answer: they change which adjective leads, never which passage is quoted.
 */
export const FEELING_STRONG = 0.3;
export const FEELING_MIXED = 0.2;
export const FEELING_LEANING = 0.1;
/**
 * Prepared queries (and option phrases) the Searcher keeps, each ~4 KB (two 512-d float vectors and
 * the stems): 1,000 is 4 MB, enough for the questions of every panel running at once (≤ 100
 * questions each) and for scenarios asked again within minutes.
 */
export const PREPARED_QUERIES = 1000;
/**
 * A typed question (panels) reads the passages of this many of the best answers: the same three
 * the offline engine shows as evidence (1 + MORE_ANSWERS), each weighted by its ranking probability
 * relative to the best (answer/question-passages.ts).
 */
export const QUESTION_ANSWERS = 1 + MORE_ANSWERS;
/**
 * A typed question's option counts as said by a passage (beside the same words said) when the
 * encoder's cosine of the option with the passage reaches this. `npm run eval:option-cosine` on 60
 * validation people of the corpus (428 options, each a word said in one passage of the person and
 * in no other): at 0.4 a match is the passage that says it 91.5% of the time (classes balanced) and
 * finds 10% of them; at 0.3, 82% and 19%. A single word against a 40-word passage is a weak signal,
 * so the encoder only adds matches it is sure of; the same words said remain the main one.
 */
export const OPTION_COSINE = 0.4;
/**
 * How the answer stage fills `thinking`, `feeling` and `acting` (answer/compose.ts): product wording,
 * not fitted to any answer (they change which of the person's sentences are quoted, never which
 * passage answers or the confidence). The fields quote the sentences of the evidence and of the
 * ranking's best FIELD_PASSAGES passages that say one of the scenario's words (about 400 words at
 * PASSAGE_WORDS each: two of the person's typical answers in the 22 interviews beyond the evidence;
 * in a monologue, where the whole talk is one answer, also where the evidence's further passages
 * come from).
 */
export const FIELD_PASSAGES = 10;
/**
 * A field quotes a sentence that says none of the scenario's words only from a passage the ranking
 * finds at least this likely relative to its best passage (exp(score − best), the fitted softmax's
 * odds, answer/candidates.ts). Product wording, not swept: docs/examples' mind, asked "Would you hire
 * a self-taught engineer?", ranks its unrelated answers at 0.039 ("Ask for help sooner") and 0.011
 * ("Leaving a stable job at a bank"); a tenth keeps the answers the ranking holds close to the best.
 */
export const FIELD_ODDS = 0.1;
/**
 * A sentence a field quotes says at least this many content words (stems, stop words left out): one
 * with fewer ("Because I was.", "You have to do it.") says nothing once out of its answer.
 * sentences.ts keeps a memory of three words or more for the same reason.
 */
export const QUOTE_MIN_TERMS = 3;
/** `thinking` quotes at most this many of the person's reasons after the one that names the view; `acting` at most this many deeds. */
export const THINKING_QUOTES = 2;
export const ACTING_QUOTES = 2;
/**
 * A field may share less than this share of its content words with another field (|A ∩ B| /
 * min(|A|, |B|) over distinct stems): issue 29's reader check, which counts an answer whose fields
 * share half their content words as one that repeats itself. A sentence that would take a field to
 * it is left out.
 */
export const FIELD_SHARE = 0.5;
/**
 * `thinking` leads with one plain sentence that names the view, reported in the third person
 * ("They think it's mostly unnecessary."); a sentence longer than this (about two spoken sentences
 * of ~13 words, see PASSAGE_WORDS) is quoted rather than reported: it is no longer one plain sentence.
 */
export const VIEW_MAX_WORDS = 30;

// ---------------------------------------------------------------------------------------------
// Typed answers (panels), offline: engines/grounded-*.ts.

/**
 * The typed answers' hand-set numbers, beside the fitted thresholds of params/typed.json (chosen
 * on the panel questions of the 22 interviews, in-sample, when typed answers were written; kept,
 * not re-tuned; `npm run eval:panels` measures them):
 * - MULTIPLE_SHARE: multiple, an option chosen has at least this share of the best option's support;
 * - LEAST_CLARITY: single, how clear a win is at exactly `optionMargin` (or a tie the encoder broke), 1 at twice it;
 * - MULTIPLE_CLARITY_BONUS: multiple, added to the chosen options' mean support for the answer's clarity;
 * - BOTH_LEAD: "both" wins over the best single option by this many `optionMargin`s when the two best are supported;
 * - SET_ASIDE / PREFERS: a sentence's stance toward an option (set aside by a contrast or a negation; said as a preference);
 * - LIKERT_CLARITY: likert, an answer's clarity is LIKERT_CLARITY + the strength of the stance (at most 1);
 * - NUMBER_CLARITY: number, an answer's clarity is NUMBER_CLARITY[0] + NUMBER_CLARITY[1] × its sentence's weight;
 * - UNDECIDED_SHARE: the confidence kept by a number question that found the subject but no number;
 * - MAX_TYPED_CONFIDENCE: a typed answer's confidence is never above this (the search's confidence × clarity).
 */
export const MULTIPLE_SHARE = 0.75;
export const LEAST_CLARITY = 0.5;
export const MULTIPLE_CLARITY_BONUS = 0.2;
export const BOTH_LEAD = 1.5;
export const SET_ASIDE = 0.5;
export const PREFERS = 1.3;
export const LIKERT_CLARITY = 0.5;
export const NUMBER_CLARITY = [0.6, 0.4] as const;
export const UNDECIDED_SHARE = 0.5;
export const MAX_TYPED_CONFIDENCE = 0.95;

/**
 * Where a scale's label sits (stance.ts `labelPolarity`, roughly −1…1): a label with a low or a high
 * word ("never", "very") sits at ∓LABEL_WORD_POLARITY, moved by LABEL_SENTIMENT_SHARE of its
 * wink-nlp sentiment; labels run from high to low when the first sits above the last by more than
 * LABELS_DESCEND_MARGIN. A sentence compared with "than" reads the lesser side as set aside unless
 * its sentiment is below −LESSER_NEGATIVE (then the comparison flips). Hand-set with typed answers
 * (commits 782890a and 51f49e5) on the likert labels and contrasts of the 22 interviews' panels;
 * not swept: they decide a scale's direction and a contrast's side, which the tests fix by example.
 */
export const LABEL_WORD_POLARITY = 0.5;
export const LABEL_SENTIMENT_SHARE = 0.5;
export const LABELS_DESCEND_MARGIN = 0.1;
export const LESSER_NEGATIVE = 0.1;

// ---------------------------------------------------------------------------------------------
// Lexical search (bm25.ts).

/**
 * BM25's term-frequency saturation and length normalisation: the usual defaults (Robertson and
 * Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009; Lucene's and
 * Elasticsearch's defaults), and the +0.5 smoothing of the Robertson–Spärck Jones IDF, in
 * Lucene's non-negative form log(1 + (N − df + ½) / (df + ½)). Not fitted: the fitted ranking
 * (params/ranking.json) weighs the BM25 score among its other features.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const IDF_SMOOTHING = 0.5;
/**
 * The question field's weight relative to the memory's own text (what the interviewer asked beside
 * what the person said); hand-set with hybrid retrieval (commit 0e4c020), and since then one input
 * of the fitted ranking, which weighs it again.
 */
export const QUESTION_WEIGHT = 0.2;

// ---------------------------------------------------------------------------------------------
// The persona profile and the linguistic markers (profile*.ts, linguistic-markers.ts).

/**
 * A sentence counts as positive at wink-nlp sentiment ≥ SENTENCE_POLARITY and as negative at
 * ≤ −SENTENCE_POLARITY, in a topic's counts and the sentiment marker alike: a sentence with one
 * mildly positive word ("good") reads about 0.2–0.3, a neutral one 0. Hand-set (commit cd30b76).
 */
export const SENTENCE_POLARITY = 0.2;
/**
 * A topic's affect: mixed when at least AFFECT_MIXED_SHARE of its mentions are positive and as many
 * negative; else positive or negative when its mean sentiment is at or beyond ±AFFECT_LEANING
 * (the same lean as FEELING_LEANING), else neutral. Hand-set (commit 4ae9f51); a word on the
 * dashboard, not used to answer.
 */
export const AFFECT_MIXED_SHARE = 0.25;
export const AFFECT_LEANING = 0.1;
/**
 * Rank of a topic: its mentions × (1 + PHRASE_WORD_WEIGHT per word beyond the first, up to three),
 * so a recurring phrase weighs more than a single noun ("host organization" over "host").
 * Hand-set with noun-phrase topics (commit 31b41f7), on the 22 interviews' profiles.
 */
export const PHRASE_WORD_WEIGHT = 0.3;
/**
 * Which of a topic's sentences the profile quotes as its stances: OPINION_WEIGHT when it says an
 * opinion ("I think", "I believe"), FIRST_PERSON_WEIGHT when it speaks in the first person, plus the
 * strength of its sentiment. Hand-set (commit 4ae9f51): an opinion first, then a personal sentence.
 */
export const OPINION_WEIGHT = 2;
export const FIRST_PERSON_WEIGHT = 0.5;

// ---------------------------------------------------------------------------------------------
// Who answers in a transcript (speakers.ts).

/**
 * The answerer is the speaker with the highest score: ±ROLE_PRIOR from the label ("Interviewer"
 * −, "Candidate" +), plus their share of the words, plus TURN_LENGTH_WEIGHT × their words per turn
 * relative to the longest, minus their rate of questions. Hand-set (commit 70d7c12): a label that
 * names the role outweighs who talks more (each share is at most 1); test/inproc's speaker cases fix
 * it by example.
 */
export const ROLE_PRIOR = 1.5;
export const TURN_LENGTH_WEIGHT = 0.5;

// ---------------------------------------------------------------------------------------------
// Memory accounting (mind-memory.ts).

/**
 * The lexical index's vocabulary is the text's stems and the questions' own: measured 10–14% more
 * than the text's on the corpus minds, so the estimate of its size takes the upper end.
 */
export const VOCABULARY_WITH_QUESTIONS = 1.12;

// ---------------------------------------------------------------------------------------------
// LLM estimates (engines/llm-psychometrics.ts).

/** A trait the model gave no score for reads as the scale's middle (it says nothing either way). */
export const UNSCORED_TRAIT = 0.5;

// ---------------------------------------------------------------------------------------------
// Corrections (memory/search/corrections.ts).

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
