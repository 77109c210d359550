/** What the offline typed answers share (grounded-questions.ts): the thresholds, the question as read once, the two ways to answer. */
import type { MindMemory } from '../memory/mind-memory.ts';
import type { AskedUnit } from '../memory/numbers.ts';
import type { PhraseMatcher } from '../memory/answer/phrase-matcher.ts';
import type { QuestionPassages } from '../memory/answer/question-passages.ts';
import { passageEvidence, round3 } from './evidence.ts';
import { tidy } from './grounded-analysis.ts';
import type { TypedAnswer } from './questions.ts';
import { typedParams, type TypedParams } from '../memory/params/typed.ts';
import { MAX_TYPED_CONFIDENCE } from '../memory/tuning.ts';

/**
 * The thresholds of the no_evidence rule once the search finds the question on-topic (the fitted
 * `declineBelow` of params/ranking.json decides that), fitted on typed questions of corpus people of
 * the train split by `npm run train:typed` (src/memory/params/typed.json, with their provenance).
 * single: the best option's support must reach `optionSupport` and lead the next option's by
 * `optionMargin`; multiple: each option chosen has at least `optionSupport` (the same quantity);
 * likert and number: a sentence is read when it says `topicShare` of the question's subject words;
 * likert and yes/no questions of judgement: a sentiment weaker than `minStance` is no stance;
 * yes/no: `ssrWeight`, the encoder anchors' say (grounded-yes-no.ts).
 */
export type TypedThresholds = Omit<TypedParams, 'provenance'>;

export const TYPED_THRESHOLDS: Readonly<TypedThresholds> = (({ provenance: _, ...t }) => t)(typedParams());

/** The typed answers' other hand-set numbers, named with their provenance in memory/tuning.ts. */
export { BOTH_LEAD, LEAST_CLARITY, LIKERT_CLARITY, MAX_TYPED_CONFIDENCE, MULTIPLE_CLARITY_BONUS, MULTIPLE_SHARE, NUMBER_CLARITY, PREFERS, SET_ASIDE, UNDECIDED_SHARE } from '../memory/tuning.ts';

export const NO_EVIDENCE_SAYING = "I haven't talked about that, so I can't say.";
export const UNDECIDED_SAYING = "I've talked around this, but nothing I've said settles it.";

export interface Prepared {
  scenario: string;
  subject: PhraseMatcher;
  options: Array<{ text: string; kind: 'yes' | 'no' | 'both' | 'words'; matcher: PhraseMatcher }>;
  unit: AskedUnit;
  unitMatchers: PhraseMatcher[];
  /** The question's subject words, without its unit, asking words and stance verbs ("How many years have you been married?" → married). */
  topic: PhraseMatcher;
  descending: boolean;
  negative: boolean;
  /** The question asks what the person prefers or how they judge something ("Would you rather…", "Which do you enjoy more?"). */
  evaluative: boolean;
  /** yes/no: the question asks for a judgement ("Do you like…"): a clear sentiment answers it (grounded-yes-no.ts). */
  judgement: boolean;
  /** yes/no: the negations of the question's own proposition ("…without a test?": 1). */
  negations: number;
  /** yes/no: the encoder's vectors of the "yes" and "no" anchor statements (grounded-yes-no.ts), or null. */
  anchors: readonly [Float32Array, Float32Array] | null;
}

export function noEvidence(confidence: number, saying = NO_EVIDENCE_SAYING): TypedAnswer {
  return { status: 'no_evidence', choices: [], value: null, saying, confidence: round3(confidence), evidence: [] };
}

/** An answer resting on the passage that holds `decisive` (its saying), the other passages read after it. */
export function answered(mind: MindMemory, found: QuestionPassages, decisive: number, choices: string[], value: number | null, confidence: number): TypedAnswer {
  const at = Math.max(0, found.passages.findIndex((docs) => docs.includes(decisive)));
  const ordered = [found.passages[at] ?? [], ...found.passages.filter((_, i) => i !== at)].filter((docs) => docs.length > 0);
  const saying = (ordered[0] ?? []).map((d) => tidy(mind.memories[d]?.text ?? '')).join(' ');
  const evidence = ordered.map((docs) => passageEvidence(mind, found.relevance, docs));
  return { status: 'answered', choices, value, saying, confidence: round3(Math.min(MAX_TYPED_CONFIDENCE, Math.max(0, confidence))), evidence };
}

/** Sentences read, heaviest first (ties in doc order). */
export const readDocs = (found: QuestionPassages): Array<[number, number]> => [...found.weight].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
