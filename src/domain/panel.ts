/**
 * A panel: one questionnaire put to many minds (`/panels`). This module says what a panel is,
 * which states it moves through, and what a valid question is; the repository guards each move
 * in SQL (`UPDATE … WHERE status IN`), so a late unit never reopens a cancelled panel and the
 * panel completes exactly once.
 *
 *   queued ─start─▶ running ─finish─▶ completed (every unit done) | failed (a unit used up its retries)
 *   queued | running ─cancel─▶ cancelled
 *
 * The work is split into units, one per mind (every question for that mind: its memory is loaded
 * once), each a job of its own that any worker takes. A unit is `pending` until its answers are
 * stored with its move to `done` (or `failed`) in one transaction.
 */
import { invalid } from '../kernel/errors.ts';
import type { LikertScale, Question, QuestionType, TypedAnswer } from '../engines/questions.ts';

export type PanelState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const PANEL_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const satisfies readonly PanelState[];

export const PANEL_TRANSITIONS = {
  /** The first unit starts (again, for a unit redelivered while running). */
  start: { from: ['queued', 'running'], to: 'running' },
  complete: { from: ['queued', 'running'], to: 'completed' },
  fail: { from: ['queued', 'running'], to: 'failed' },
  cancel: { from: ['queued', 'running'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly PanelState[]; to: PanelState }>;

export type PanelMove = keyof typeof PANEL_TRANSITIONS;

/** States in which units still run (and a unit may store its answers). */
export const ACTIVE_PANEL_STATES = ['queued', 'running'] as const satisfies readonly PanelState[];
export const isFinalPanel = (s: PanelState): boolean => s !== 'queued' && s !== 'running';

export type UnitState = 'pending' | 'done' | 'failed';

/** The job that answers one unit (one mind, every question). */
export const RUN_PANEL_UNIT = 'run-panel-unit';

export interface PanelSelection {
  mindIds?: string[];
  tags?: string[];
}

/** A mind the selection named that the panel leaves out, and why. */
export interface SkippedMind {
  mindId: string;
  name: string;
  reason: 'no_completed_snapshot';
}

export interface PanelRecord {
  id: string;
  accountId: string;
  name: string;
  status: PanelState;
  model: string;
  selection: PanelSelection;
  questions: Question[];
  skipped: SkippedMind[];
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export type NewPanel = Omit<PanelRecord, 'error' | 'updatedAt' | 'startedAt' | 'finishedAt'>;

export interface PanelUnit {
  id: string;
  panelId: string;
  accountId: string;
  mindId: string;
  mindName: string;
  seq: number;
  /** The panel's selection tags this mind carries (its segments). */
  tags: string[];
  status: UnitState;
  snapshotIds: string[] | null;
  error: string | null;
  finishedAt: string | null;
}

export type NewUnit = Pick<PanelUnit, 'id' | 'mindId' | 'mindName' | 'seq' | 'tags'>;

/** Units' progress: how many are in each state. */
export interface UnitCounts {
  pending: number;
  done: number;
  failed: number;
}

/** One mind's answer to one question (the engine's typed answer), as stored. */
export interface PanelAnswer extends TypedAnswer {
  unitSeq: number;
  questionIndex: number;
  mindId: string;
  createdAt: string;
}

/** What the distributions are computed from (no words, no evidence). */
export type AnswerFigures = Pick<PanelAnswer, 'unitSeq' | 'questionIndex' | 'status' | 'choices' | 'value' | 'confidence'>;

/** A question as a client sends it (ids and the likert scale optional). */
export interface QuestionInput {
  id?: string | undefined;
  text: string;
  type: QuestionType;
  options?: string[] | undefined;
  scale?: { min: number; max: number; labels?: string[] | undefined } | undefined;
}

export const DEFAULT_LIKERT: LikertScale = { min: 1, max: 5 };
/** A likert scale has at most this many points. */
export const MAX_LIKERT_POINTS = 11;

const questionError = (i: number, field: string, message: string) =>
  invalid('invalid_question', `Question ${i + 1}: ${message}`, { field: `questions.${i}.${field}` });

/**
 * The questions as engines get them: ids given or `q1`, `q2`…, unique; options for single and
 * multiple (distinct, at least two) and only for them; a likert scale of integers (default 1–5,
 * labels one per point); a number's optional scale as its bounds.
 */
export function normalizeQuestions(input: readonly QuestionInput[]): Question[] {
  const seen = new Set<string>();
  return input.map((q, i) => {
    const id = q.id ?? `q${i + 1}`;
    if (seen.has(id)) throw questionError(i, 'id', `the id "${id}" is used twice.`);
    seen.add(id);
    const text = q.text.trim();
    if (!text) throw questionError(i, 'text', 'the text is empty.');
    const out: Question = { id, text, type: q.type };
    const choice = q.type === 'single' || q.type === 'multiple';
    if (choice) {
      const options = (q.options ?? []).map((o) => o.trim());
      if (options.length < 2) throw questionError(i, 'options', `a ${q.type} question needs at least two options.`);
      if (options.some((o) => !o)) throw questionError(i, 'options', 'an option is empty.');
      if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) throw questionError(i, 'options', 'two options are the same.');
      out.options = options;
    } else if (q.options !== undefined) {
      throw questionError(i, 'options', `a ${q.type} question takes no options (only single and multiple do).`);
    }
    if (q.scale !== undefined && (choice || q.type === 'open')) throw questionError(i, 'scale', `a ${q.type} question takes no scale.`);
    if (q.type === 'likert') {
      const scale = q.scale ?? DEFAULT_LIKERT;
      if (!Number.isInteger(scale.min) || !Number.isInteger(scale.max)) throw questionError(i, 'scale', 'a likert scale runs between integers.');
      if (scale.max <= scale.min) throw questionError(i, 'scale', 'max must be greater than min.');
      if (scale.max - scale.min + 1 > MAX_LIKERT_POINTS) throw questionError(i, 'scale', `a likert scale has at most ${MAX_LIKERT_POINTS} points.`);
      if (scale.labels !== undefined && scale.labels.length !== scale.max - scale.min + 1 && scale.labels.length !== 2) {
        throw questionError(i, 'scale.labels', `give one label per point (${scale.max - scale.min + 1}), two for its ends (the minimum's and the maximum's), or none.`);
      }
      out.scale = { min: scale.min, max: scale.max, ...(scale.labels ? { labels: scale.labels } : {}) };
    }
    if (q.type === 'number' && q.scale !== undefined) {
      if (q.scale.max <= q.scale.min) throw questionError(i, 'scale', 'max must be greater than min.');
      if (q.scale.labels !== undefined) throw questionError(i, 'scale.labels', 'a number question takes no labels.');
      out.scale = { min: q.scale.min, max: q.scale.max };
    }
    return out;
  });
}

/** The points of a likert scale, low to high. */
export const likertPoints = (scale: LikertScale): number[] => Array.from({ length: scale.max - scale.min + 1 }, (_, k) => scale.min + k);
