/** What the offline typed answers share (grounded-questions.ts): the thresholds, the question as read once, the two ways to answer. */
import type { MindMemory } from '../memory/mind-memory.ts';
import type { AskedUnit } from '../memory/numbers.ts';
import type { PhraseMatcher, QuestionPassages } from '../memory/question-evidence.ts';
import { passageEvidence, round3 } from './evidence.ts';
import { tidy } from './grounded-analysis.ts';
import type { TypedAnswer } from './questions.ts';

/**
 * The thresholds of the no_evidence rule, calibrated on the panel questions (`npm run eval:panels`,
 * EVAL.md): `declineBelow`, the retrieval confidence under which nothing the person said bears on
 * the question; single: the best option's support must reach `optionSupport` and lead the next
 * option's by `optionMargin`; multiple: each option chosen has at least `multipleSupport`; likert:
 * a weighted sentiment weaker than `minStance` is no stance.
 */
export interface TypedThresholds {
  declineBelow: number;
  optionSupport: number;
  optionMargin: number;
  multipleSupport: number;
  minStance: number;
}

export const TYPED_THRESHOLDS: Readonly<TypedThresholds> = {
  declineBelow: 0.2,
  optionSupport: 0.35,
  optionMargin: 0.1,
  multipleSupport: 0.45,
  minStance: 0.05,
};

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
  return { status: 'answered', choices, value, saying, confidence: round3(Math.min(0.95, Math.max(0, confidence))), evidence };
}

/** Sentences read, heaviest first (ties in doc order). */
export const readDocs = (found: QuestionPassages): Array<[number, number]> => [...found.weight].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
