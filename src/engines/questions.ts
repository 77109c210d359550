/**
 * Typed questions (panels): the port an engine answers a questionnaire item through. An answer is
 * one of the question's options (single), some of them (multiple), a point of its scale (likert),
 * a number (number) or the person's words (open) — or `no_evidence` when nothing the person said
 * bears on the question: never a silent default.
 */
import type { TextRedaction } from './llm-redacting.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import type { EngineContext, EvidenceItem } from './engine-context.ts';

export const QUESTION_TYPES = ['open', 'single', 'multiple', 'likert', 'number'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * A likert scale: integer points from min to max, optionally labelled: one label per point (labels[0]
 * names min), or two that name its ends only (the minimum's and the maximum's), as most survey tools take anchors.
 */
export interface LikertScale {
  min: number;
  max: number;
  labels?: string[] | undefined;
}

/** The label of a point of a likert scale, if it has one (with end labels only, the ends have). */
export function scalePointLabel(scale: LikertScale, value: number): string | undefined {
  const labels = scale.labels;
  if (!labels || labels.length === 0) return undefined;
  if (labels.length === scale.max - scale.min + 1) return labels[value - scale.min];
  if (labels.length === 2) return value === scale.min ? labels[0] : value === scale.max ? labels[1] : undefined;
  return undefined;
}

/** A question as the engine gets it: `options` set for single/multiple, `scale` for likert (and optional bounds for number). */
export interface Question {
  id: string;
  text: string;
  type: QuestionType;
  options?: string[];
  scale?: LikertScale;
}

export const ANSWER_STATUSES = ['answered', 'no_evidence'] as const;
export type AnswerStatus = (typeof ANSWER_STATUSES)[number];

export interface TypedAnswer {
  status: AnswerStatus;
  /** single: exactly one option, multiple: one or more, verbatim from `options`; empty otherwise and for no_evidence. */
  choices: string[];
  /** likert: an integer point of the scale; number: the number; null otherwise and for no_evidence. */
  value: number | null;
  /** What the person would say to the question (offline: their own words); for no_evidence the honest decline. */
  saying: string;
  /** 0..1: how strongly the person's words support this answer. */
  confidence: number;
  /** The passages the answer rests on (empty for no_evidence). */
  evidence: EvidenceItem[];
}

export interface QuestionInput {
  mindName: string;
  memory: MindMemory;
  question: Question;
  /** Profile and expert reflections, for engines that want them (`Engine.wantsContext`). */
  context?: EngineContext;
  /** The mind's redaction when it is on: every prompt sent to an LLM provider passes through it. */
  redaction?: TextRedaction;
}
