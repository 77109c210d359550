/**
 * Typed answers, offline (panels): a question's answer from the person's own words, or
 * `no_evidence` — never a guess.
 *
 * 1. The learned search on the question, its options as context (memory/answer/question-passages.ts):
 *    the passages that bear on it, each sentence weighted by the ranking, and the calibrated
 *    P(on-topic) and confidence. Below the fitted `declineBelow` nothing they said bears on it:
 *    no_evidence.
 * 2. By type:
 *    - single: each option's support is its best sentence's weight × how well that sentence says
 *      the option (same words, or its passage near the option in the encoder's meaning: OPTION_COSINE;
 *      an option said across a sentence and the one before it in the same answer counts whole) × the sentence's stance toward it:
 *      halved when the option is what a contrast sets aside ("data instead of storytelling",
 *      "X rather than Y", "more X than Y", "not so much X as Y") or what a negation covers ("I
 *      never drink decaf"), and, for a question of preference, × 1.3 when the sentence says what
 *      they prefer or enjoy ("I'd rather…", "I love…", "without question"); "yes"/"no" options are read as
 *      the sentences that address the question, without or with a negation; "both" wins when the
 *      two best other options are both supported. The best option must be supported
 *      (`optionSupport`) and ahead of the next by `optionMargin`, else no_evidence.
 *    - multiple: every option supported (`optionSupport`) and near the best (MULTIPLE_SHARE); none → no_evidence.
 *    - likert: the sentiment (negation-aware) of the sentences that address the question,
 *      mapped onto the scale (its direction from its labels' meaning, flipped for a question
 *      asked negatively); too weak a stance → no_evidence.
 *    - number: a number stated in a sentence read, whose unit is what the question counts
 *      ("how many years" → "two years"), within the scale's bounds; none → no_evidence.
 *    - open: the best passage.
 * 3. `saying` is the passage that decided, in their words; `evidence` the passages read, that one
 *    first; `confidence` the search's calibrated confidence × how clearly the answer won.
 *
 * Per question (the same for every mind of a panel) the question's embedding, the options' encoder
 * vectors (memory/search/searcher.ts) and the scale's reading are prepared once and remembered.
 * Deterministic.
 */
import { LRUCache } from 'lru-cache';
import type { MindMemory } from '../memory/mind-memory.ts';
import { PREPARED_QUERIES } from '../memory/tuning.ts';
import { askedUnit, TIME_UNITS, type AskedUnit } from '../memory/numbers.ts';
import { PhraseMatcher } from '../memory/answer/phrase-matcher.ts';
import { questionPassages } from '../memory/answer/question-passages.ts';
import type { SearchResult } from '../memory/search/search.ts';
import { splitScenario } from '../memory/search/scenario.ts';
import type { RankingParams } from '../memory/params/params.ts';
import { asksNegatively, labelsDescend } from '../memory/stance.ts';
import { choose } from './grounded-choices.ts';
import { answered, noEvidence, TYPED_THRESHOLDS, type Prepared, type TypedThresholds } from './grounded-question-parts.ts';
import { likert, numberAnswer } from './grounded-scales.ts';
import { JUDGEMENT_RE, questionNegations, yesNoAnchors } from './grounded-yes-no.ts';
import type { Question, TypedAnswer } from './questions.ts';

export { NO_EVIDENCE_SAYING, TYPED_THRESHOLDS, UNDECIDED_SAYING, type TypedThresholds } from './grounded-question-parts.ts';

const YES = /^(yes|yeah|yep|true|agree)$/i;
const NO = /^(no|nope|false|disagree|never)$/i;
const BOTH = /^(both|all of (the|these|them)( above)?|all (three|of them))$/i;

const preparedCache = new LRUCache<string, Prepared>({ max: PREPARED_QUERIES });

/** The options that are words (not yes/no/both): these are searched as the question's context. */
export const wordOptions = (q: Question): string[] => (q.options ?? []).filter((o) => optionKind(o) === 'words');

/** A single-choice question offering a yes and a no (grounded-yes-no.ts reads it). */
const asksYesNo = (q: Question): boolean => q.type === 'single' && ['yes', 'no'].every((k) => (q.options ?? []).some((o) => optionKind(o) === k));

/**
 * The phrases of a question the encoder embeds (once per question): its word options, then (for a
 * number) its subject, then (for yes/no) its "yes" and "no" anchor statements.
 */
export const questionPhrases = (q: Question): string[] => [
  ...wordOptions(q).map((o) => o.trim()),
  ...(q.type === 'number' ? [topicOf(q.text, askedUnit(q.text))] : []),
  ...(asksYesNo(q) ? yesNoAnchors(splitScenario(q.text).ask) : []),
];

const optionKind = (text: string): 'yes' | 'no' | 'both' | 'words' => {
  const t = text.trim();
  return YES.test(t) ? 'yes' : NO.test(t) ? 'no' : BOTH.test(t) ? 'both' : 'words';
};

/**
 * The question read once (its options' matchers, its unit, its scale's direction), remembered by
 * content; `vectors` are the encoder's vectors of its `questionPhrases`, in order.
 */
function prepare(q: Question, vectors: readonly Float32Array[] = []): Prepared {
  const key = JSON.stringify([q.type, q.text, q.options ?? [], q.scale ?? null, vectors.length]);
  const cached = preparedCache.get(key);
  if (cached) return cached;
  let k = 0;
  const options = (q.options ?? []).map((text) => {
    const kind = optionKind(text);
    return { text, kind, matcher: new PhraseMatcher(kind === 'words' ? text.trim() : '', kind === 'words' ? (vectors[k++] ?? null) : null) } as const;
  });
  const listed = wordOptions(q);
  const unit = askedUnit(q.text);
  const anchorsAt = listed.length + (q.type === 'number' ? 1 : 0);
  const [yes, no] = [vectors[anchorsAt], vectors[anchorsAt + 1]];
  const prepared: Prepared = {
    // The options are the context, the question the ask (memory/search/scenario.ts).
    scenario: listed.length > 0 && (q.type === 'single' || q.type === 'multiple') ? `${listed.join(', ')}. ${q.text}` : q.text,
    // What is asked: a question put after its context ("We're a 12-person agency… Would you take the deal?") asks its last sentence.
    subject: new PhraseMatcher(splitScenario(q.text).ask),
    options,
    unit,
    unitMatchers: unit.words.slice(0, 1).map((w) => new PhraseMatcher(w)),
    topic: new PhraseMatcher(topicOf(q.text, unit), vectors[listed.length] ?? null),
    descending: labelsDescend(q.scale?.labels),
    negative: asksNegatively(q.text),
    evaluative: EVALUATIVE_RE.test(q.text),
    judgement: JUDGEMENT_RE.test(q.text),
    negations: questionNegations(splitScenario(q.text).ask),
    anchors: asksYesNo(q) && yes && no ? [yes, no] : null,
  };
  preparedCache.set(key, prepared);
  return prepared;
}

/** A question about the person's preference or judgement rather than a fact. */
const EVALUATIVE_RE = /\b(?:prefer\w*|rather|favou?rite|like|love|enjoy|better|best|worse|worst|want|should|choose|opinion|feel|think|believe|focus|aim|important)\b/i;

/** Words that frame a question rather than name its subject: "how many", its unit, a stance verb. */
const FRAMING_RE = /\b(?:how\s+(?:many|much|long|old)|enjoy|like|love|hate|dislike|prefer|care|value|agree|disagree|important|happy|satisfied|interested|excited|worried|fond|feel)\b/gi;

/** The question's subject words: "How much do you enjoy growing vegetables?" → growing vegetables. */
function topicOf(text: string, unit: AskedUnit): string {
  const units = [...unit.words, ...TIME_UNITS].map((w) => w.replace(/[^a-z'-]/g, '')).filter(Boolean);
  return text.replace(FRAMING_RE, ' ').replace(new RegExp(`\\b(?:${units.join('|')})\\b`, 'gi'), ' ');
}

/**
 * The answer of `mind` to a typed question, from the search on `questionScenario(question)` (null
 * when the mind has no passages), the encoder's vectors of its `questionPhrases`, and the fitted
 * parameters (the ranking's weights; the P(on-topic) under which it declines).
 */
export function answerTyped(
  mind: MindMemory,
  question: Question,
  search: SearchResult | null,
  phraseVectors: readonly Float32Array[],
  params: Pick<RankingParams, 'ranking' | 'declineBelow'>,
  t: Readonly<TypedThresholds> = TYPED_THRESHOLDS,
): TypedAnswer {
  const p = prepare(question, phraseVectors);
  if (!search) return noEvidence(0);
  const found = questionPassages(mind, search, params);
  if (found.passages.length === 0 || found.onTopic < params.declineBelow) return noEvidence(found.confidence);
  switch (question.type) {
    case 'single':
    case 'multiple':
      return choose(mind, question, p, found, t);
    case 'likert':
      return likert(mind, question, p, found, t);
    case 'number':
      return numberAnswer(mind, question, p, found, t);
    case 'open':
      return answered(mind, found, found.passages[0]?.[0] ?? -1, [], null, found.confidence);
  }
}

/** The text the search looks for on a question: the question as the ask, its options (not yes/no/both) as context. */
export const questionScenario = (q: Question): string => prepare(q).scenario;
