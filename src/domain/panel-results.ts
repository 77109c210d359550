/**
 * A panel's results, computed from its stored answers (never kept apart from them, so the
 * distributions always equal the per-answer rows): per question the distribution over its options
 * (likert: over its points), counts and confidence-weighted shares, mean/median for likert and
 * number, and the count of `no_evidence`; per selection tag the same over the minds carrying it.
 */
import type { LikertScale, Question, QuestionType } from '../engines/questions.ts';
import { likertPoints, type AnswerFigures } from './panel.ts';
import { scalePointLabel } from '../engines/questions.ts';

export interface OptionShare {
  option: string;
  /** The scale point (likert), else absent. */
  value?: number;
  count: number;
  /** count / answered: for multiple choice the shares may add up to more than 1. */
  share: number;
  /** The confidence of the answers choosing it over the confidence of every answered one. */
  weightedShare: number;
}

export interface QuestionResult {
  questionId: string;
  text: string;
  type: QuestionType;
  options?: string[];
  scale?: LikertScale;
  /** Answers stored so far: answered + noEvidence. */
  responses: number;
  answered: number;
  noEvidence: number;
  /** single, multiple and likert; null for open and number. */
  distribution: OptionShare[] | null;
  /** likert and number, over the answered; null otherwise or when none answered. */
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
}

export interface SegmentResult {
  tag: string;
  /** Minds of the panel carrying the tag. */
  minds: number;
  questions: QuestionResult[];
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The result of one question over these answers (all of them that question's). */
export function questionResult(q: Question, answers: readonly AnswerFigures[]): QuestionResult {
  const answered = answers.filter((a) => a.status === 'answered');
  const weight = answered.reduce((s, a) => s + a.confidence, 0);
  const shareOf = (chose: (a: AnswerFigures) => boolean): Omit<OptionShare, 'option'> => {
    const picked = answered.filter(chose);
    const w = picked.reduce((s, a) => s + a.confidence, 0);
    return {
      count: picked.length,
      share: answered.length ? round4(picked.length / answered.length) : 0,
      weightedShare: weight > 0 ? round4(w / weight) : 0,
    };
  };
  let distribution: OptionShare[] | null = null;
  if (q.type === 'single' || q.type === 'multiple') {
    distribution = (q.options ?? []).map((option) => ({ option, ...shareOf((a) => a.choices.includes(option)) }));
  } else if (q.type === 'likert' && q.scale) {
    const scale = q.scale;
    distribution = likertPoints(scale).map((value) => ({ option: scalePointLabel(scale, value) ?? String(value), value, ...shareOf((a) => a.value === value) }));
  }
  const values = q.type === 'likert' || q.type === 'number' ? answered.flatMap((a) => (a.value === null ? [] : [a.value])).sort((a, b) => a - b) : [];
  const mean = values.length ? round4(values.reduce((s, v) => s + v, 0) / values.length) : null;
  return {
    questionId: q.id,
    text: q.text,
    type: q.type,
    ...(q.options ? { options: q.options } : {}),
    ...(q.scale ? { scale: q.scale } : {}),
    responses: answers.length,
    answered: answered.length,
    noEvidence: answers.length - answered.length,
    distribution,
    mean,
    median: median(values),
    min: values[0] ?? null,
    max: values.at(-1) ?? null,
  };
}

/** Every question's result over these answers (of any question). */
export function questionResults(questions: readonly Question[], answers: readonly AnswerFigures[]): QuestionResult[] {
  const byQuestion = questions.map((): AnswerFigures[] => []);
  for (const a of answers) byQuestion[a.questionIndex]?.push(a);
  return questions.map((q, i) => questionResult(q, byQuestion[i] ?? []));
}

/** Per selection tag, the results over the minds (units, by seq) carrying it. */
export function segmentResults(
  tags: readonly string[],
  units: ReadonlyArray<{ seq: number; tags: readonly string[] }>,
  questions: readonly Question[],
  answers: readonly AnswerFigures[],
): SegmentResult[] {
  return tags.map((tag) => {
    const key = tag.toLowerCase();
    const seqs = new Set(units.filter((u) => u.tags.some((t) => t.toLowerCase() === key)).map((u) => u.seq));
    return { tag, minds: seqs.size, questions: questionResults(questions, answers.filter((a) => seqs.has(a.unitSeq))) };
  });
}
