/** Panels (`/panels`): a questionnaire put to many minds, its results and answers. */
import { z } from 'zod';
import { ANSWER_STATUSES, QUESTION_TYPES } from '../../engines/questions.ts';
import { MAX_LIKERT_POINTS, PANEL_STATES } from '../../domain/panel.ts';
import { Evidence } from '../schemas.ts';

const Id = z.uuid();
const Timestamp = z.string().describe('ISO 8601 timestamp in UTC, ending in Z');
/** How many questions one panel may ask (the minds × questions product has its own limit, PANEL_MAX_ANSWERS: 413 beyond). */
export const MAX_QUESTIONS = 200;
export const MAX_OPTIONS = 20;
export const MAX_SELECTED_MINDS = 1000;

const Scale = z.object({
  min: z.number().describe('likert: the lowest point (an integer); number: the smallest allowed value'),
  max: z.number().describe('likert: the highest point (an integer); number: the largest allowed value'),
  labels: z.array(z.string().min(1).max(100)).max(MAX_LIKERT_POINTS).optional().describe('likert only: one label per point, lowest first; or two, the minimum\'s and the maximum\'s'),
});

export const PanelQuestionInput = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/, 'letters, digits, _ . and - only')
    .optional()
    .describe('Your id for the question (default q1, q2, …), unique in the panel'),
  text: z.string().min(1).max(2000),
  type: z.enum(QUESTION_TYPES).describe('open: an answer in words; single: one option; multiple: some options; likert: a point of the scale; number: a number'),
  options: z.array(z.string().min(1).max(200)).max(MAX_OPTIONS).optional().describe('single and multiple only: at least two distinct options'),
  scale: Scale.optional().describe('likert: the scale (default 1–5, at most 11 points); number: optional bounds'),
});

const Question = z
  .object({
    id: z.string(),
    text: z.string(),
    type: z.enum(QUESTION_TYPES),
    options: z.array(z.string()).optional(),
    scale: z.object({ min: z.number(), max: z.number(), labels: z.array(z.string()).optional() }).optional(),
  })
  .meta({ id: 'PanelQuestion' });

export const CreatePanelBody = z.object({
  name: z.string().max(200).optional().describe('Default: "N questions to M minds"'),
  mindIds: z.array(Id).max(MAX_SELECTED_MINDS).optional().describe('These minds of the account'),
  tags: z.array(z.string().min(1).max(100)).max(50).optional().describe('Every mind of the account carrying one of these tags (case-insensitive); the results are also given per tag'),
  questions: z.array(PanelQuestionInput).min(1).max(MAX_QUESTIONS),
  selectedSimulationModel: z.string().optional().describe('mind-reasoner-standard (offline, from the person\'s own words) or mind-reasoner-pro (an LLM, when configured)'),
});

const OptionShare = z.object({
  option: z.string().describe('The option, or the likert point (its label when the scale has labels)'),
  value: z.number().optional().describe('likert: the point'),
  count: z.number().int(),
  share: z.number().describe('count / answered (multiple choice: the shares may add up to more than 1)'),
  weightedShare: z.number().describe("The confidence of the answers choosing it over the confidence of every answered one"),
});

const QuestionResult = z
  .object({
    questionId: z.string(),
    text: z.string(),
    type: z.enum(QUESTION_TYPES),
    options: z.array(z.string()).optional(),
    scale: z.object({ min: z.number(), max: z.number(), labels: z.array(z.string()).optional() }).optional(),
    responses: z.number().int().describe('Answers stored so far: answered + noEvidence'),
    answered: z.number().int(),
    noEvidence: z.number().int().describe('Minds whose words do not bear on the question: counted, never guessed'),
    distribution: z.array(OptionShare).nullable().describe('single, multiple and likert; null for open and number'),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  })
  .meta({ id: 'PanelQuestionResult' });

export const Panel = z
  .object({
    id: Id,
    name: z.string(),
    status: z.enum(PANEL_STATES),
    model: z.string().describe('The model that answers'),
    selection: z.object({ mindIds: z.array(Id).optional(), tags: z.array(z.string()).optional() }),
    questions: z.array(Question),
    total: z.number().int().describe('Answers expected: minds × questions'),
    done: z.number().int().describe('Answers stored so far'),
    minds: z.number().int().describe('Minds answering'),
    mindsDone: z.number().int(),
    mindsFailed: z.number().int().describe('Minds that could not be answered after every retry (the panel then ends failed)'),
    skippedMinds: z
      .array(z.object({ mindId: Id, name: z.string(), reason: z.literal('no_completed_snapshot') }))
      .describe('Selected minds left out: nothing to answer from yet'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    results: z.array(QuestionResult).optional().describe('GET /panels/{panelId} only: per question, over the answers stored so far'),
    segments: z
      .array(z.object({ tag: z.string(), minds: z.number().int(), questions: z.array(QuestionResult) }))
      .optional()
      .describe('When the panel was chosen by tags: the results over the minds carrying each tag'),
  })
  .meta({ id: 'Panel' });

export const PanelEnvelope = z.object({ panel: Panel });
export const PanelParams = z.object({ panelId: Id });

export const PanelsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const PanelList = z.object({
  panels: z.array(Panel).describe('Newest first, without results'),
  count: z.number().int(),
});

export const PanelAnswersQuery = z.object({
  format: z.enum(['json', 'csv']).default('json').describe('csv: every matching answer (no paging) as text/csv'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  questionId: z.string().max(64).optional(),
  mindId: Id.optional(),
  status: z.enum(ANSWER_STATUSES).optional(),
  option: z.string().max(200).optional().describe('Answers that chose this option'),
  value: z.coerce.number().optional().describe('Answers with this value (a likert point, a number)'),
});

export const PanelAnswer = z
  .object({
    mindId: Id,
    mindName: z.string(),
    questionId: z.string(),
    question: z.string(),
    type: z.enum(QUESTION_TYPES),
    status: z.enum(ANSWER_STATUSES).describe('no_evidence: nothing the person said bears on the question'),
    choices: z.array(z.string()).describe('single: one option; multiple: one or more; empty otherwise'),
    value: z.number().nullable().describe('likert: the point; number: the number'),
    saying: z.string().describe('What the person would say (offline: their own words)'),
    confidence: z.number().min(0).max(1),
    evidence: z.array(Evidence),
    createdAt: Timestamp,
  })
  .meta({ id: 'PanelAnswer' });

export const PanelAnswerList = z.object({
  answers: z.array(PanelAnswer).describe('By question, then mind'),
  count: z.number().int().describe('How many answers match in all'),
});

export const PanelDeleted = z.object({ message: z.literal('Panel deleted successfully'), panelId: Id });
