/**
 * The MCP tools of panels: `run_panel` (typed questions to many minds, chosen by id or tag; waits
 * a bounded time for the results) and `get_panel` (progress, results and, on request, a bounded
 * number of answers with the person's words). Both answer a compact view: the panel, one summary
 * line per question, the results per question (and per tag). Registered by createMcpServer (tools.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isFinalPanel, type PanelState } from '../domain/panel.ts';
import { QUESTION_TYPES } from '../engines/questions.ts';
import { MAX_QUESTIONS, PanelQuestionInput } from '../http/schemas/panels.ts';
import { run } from './results.ts';
import { roundScore as round } from '../memory/answer/scores.ts';

export interface PanelQuestionRequest {
  id?: string | undefined;
  text: string;
  type: (typeof QUESTION_TYPES)[number];
  options?: string[] | undefined;
  scale?: { min: number; max: number; labels?: string[] | undefined } | undefined;
}

export interface PanelToolRequest {
  questions: PanelQuestionRequest[];
  mindIds?: string[] | undefined;
  tags?: string[] | undefined;
  name?: string | undefined;
  selectedSimulationModel?: string | undefined;
}

interface OptionShareShape {
  option: string;
  value?: number | undefined;
  count: number;
  share: number;
  weightedShare: number;
}

interface QuestionResultShape {
  questionId: string;
  text: string;
  type: string;
  answered: number;
  noEvidence: number;
  distribution: OptionShareShape[] | null;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
}

/** What the tools read of a panel: `GET /panels/{id}`'s panel, from the domain or the SDK alike. */
export interface PanelShape {
  id: string;
  name: string;
  status: PanelState;
  model: string;
  selection: { mindIds?: string[] | undefined; tags?: string[] | undefined };
  total: number;
  done: number;
  minds: number;
  mindsDone: number;
  mindsFailed: number;
  skippedMinds: Array<{ mindId: string; name: string; reason: string }>;
  error: { code: string; message: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  results?: QuestionResultShape[] | undefined;
  segments?: Array<{ tag: string; minds: number; questions: QuestionResultShape[] }> | undefined;
}

interface AnswerShape {
  mindId: string;
  mindName: string;
  questionId: string;
  status: string;
  choices: string[];
  value: number | null;
  saying: string;
  confidence: number;
  evidence: Array<{ text: string; snapshotId: string | null; start?: number | undefined; end?: number | undefined; page?: number | undefined }>;
}

/** What the panel tools need of a backend (part of MindsimBackend). */
export interface PanelBackend {
  /** Queues the panel; answers it (status queued). */
  createPanel(req: PanelToolRequest): Promise<PanelShape>;
  /** The panel with its results. */
  getPanel(panelId: string): Promise<PanelShape>;
  panelAnswers(panelId: string, q: { limit: number; questionId?: string }): Promise<{ answers: AnswerShape[]; count: number }>;
}

/** run_panel waits at most this long by default: under the 60 s a typical MCP client allows a request. */
export const PANEL_WAIT_SECONDS = 45;
export const MAX_PANEL_WAIT_SECONDS = 50;
/** get_panel's includeAnswers: at most this many answers, each with at most EVIDENCE_PER_ANSWER passages. */
export const MAX_PANEL_ANSWERS = 100;
const EVIDENCE_PER_ANSWER = 2;

export const PANEL_TOOL_DESCRIPTIONS = {
  run_panel:
    'Ask many minds the same typed questions at once (a panel, like a survey of the real people behind the minds). Choose the minds by ' +
    '`mindIds`, `tags` (every mind carrying one of them; results are also given per tag) or both; minds without a completed snapshot are ' +
    'left out (`skippedMinds`). Each question is open (words), single (one of `options`), multiple (some of `options`), likert (a point ' +
    'of `scale`, default 1–5) or number. A mind whose words do not bear on a question answers `no_evidence`: counted apart, never a guess. ' +
    `By default waits up to ${PANEL_WAIT_SECONDS} s for the results; a larger panel comes back still running: then call get_panel with its id. ` +
    'Returns the panel, one summary line per question, and per question the counts and shares of each option (or mean/median for likert and number).',
  get_panel:
    "A panel's status and progress (done of total answers) and its results per question (and per tag). With `includeAnswers` " +
    `(up to ${MAX_PANEL_ANSWERS}), also that many answers: each mind's choice or value, what the person would say and the evidence ` +
    '(their own quotes, at most two per answer); `questionId` keeps one question\'s answers.',
} as const;

const id = (what: string) => z.string().uuid().describe(what);
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** One line per question: the options' counts and shares (or the figures), and how many minds had no evidence. */
export function summaryLine(r: QuestionResultShape): string {
  const parts: string[] = [];
  if (r.distribution) {
    parts.push(r.distribution.map((d) => `${d.value !== undefined && String(d.value) !== d.option ? `${d.value} ${d.option}` : d.option}: ${d.count} (${pct(d.share)})`).join('; '));
  }
  if (r.mean !== null) parts.push(`mean ${round(r.mean)}, median ${r.median === null ? '—' : round(r.median)}`);
  if (r.type === 'open') parts.push('answers in words: see get_panel with includeAnswers');
  parts.push(`${r.answered} answered, ${r.noEvidence} no_evidence`);
  return `${r.questionId} (${r.type}) ${r.text} — ${parts.join(' · ')}`;
}

/** A question's result without what the summary repeats; shares rounded; figures only where they mean something. */
const compactResult = (r: QuestionResultShape) => ({
  questionId: r.questionId,
  type: r.type,
  answered: r.answered,
  noEvidence: r.noEvidence,
  ...(r.distribution
    ? {
        distribution: r.distribution.map((d) => ({
          option: d.option,
          ...(d.value !== undefined ? { value: d.value } : {}),
          count: d.count,
          share: round(d.share),
          weightedShare: round(d.weightedShare),
        })),
      }
    : {}),
  ...(r.type === 'likert' || r.type === 'number' ? { mean: r.mean === null ? null : round(r.mean), median: r.median, min: r.min, max: r.max } : {}),
});

/** The panel as both tools answer it, whatever backend produced it. */
export function panelView(p: PanelShape) {
  const next = isFinalPanel(p.status)
    ? `Final. get_panel with panelId "${p.id}" and includeAnswers gives the minds' own words and evidence.`
    : `Still ${p.status} (${p.done} of ${p.total} answers): call get_panel with panelId "${p.id}" in a while for the final results.`;
  return {
    panel: {
      id: p.id,
      name: p.name,
      status: p.status,
      model: p.model,
      selection: p.selection,
      minds: p.minds,
      mindsDone: p.mindsDone,
      mindsFailed: p.mindsFailed,
      total: p.total,
      done: p.done,
      skippedMinds: p.skippedMinds,
      error: p.error,
      createdAt: p.createdAt,
      startedAt: p.startedAt,
      finishedAt: p.finishedAt,
    },
    summary: (p.results ?? []).map(summaryLine),
    results: (p.results ?? []).map(compactResult),
    ...(p.segments?.length
      ? {
          segments: p.segments.map((s) =>
            // A tag every mind carries has the panel's own results: not repeated.
            s.minds === p.minds
              ? { tag: s.tag, minds: s.minds, sameAsPanel: true }
              : { tag: s.tag, minds: s.minds, summary: s.questions.map(summaryLine), results: s.questions.map(compactResult) },
          ),
        }
      : {}),
    next,
  };
}

const compactAnswer = (a: AnswerShape) => ({
  mindId: a.mindId,
  mindName: a.mindName,
  questionId: a.questionId,
  status: a.status,
  choices: a.choices,
  value: a.value,
  confidence: round(a.confidence),
  saying: a.saying,
  evidence: a.evidence.slice(0, EVIDENCE_PER_ANSWER).map((e) => ({
    text: e.text,
    snapshotId: e.snapshotId,
    ...(e.start !== undefined ? { start: e.start } : {}),
    ...(e.end !== undefined ? { end: e.end } : {}),
    ...(e.page !== undefined ? { page: e.page } : {}),
  })),
});

/** Reads the panel until it is final or `waitSeconds` have passed (intervals growing from 250 ms to 2 s). */
async function waitForPanel(backend: PanelBackend, panelId: string, waitSeconds: number): Promise<PanelShape> {
  const deadline = Date.now() + waitSeconds * 1000;
  let interval = 250;
  for (;;) {
    const panel = await backend.getPanel(panelId);
    const left = deadline - Date.now();
    if (isFinalPanel(panel.status) || left <= 0) return panel;
    await new Promise((r) => setTimeout(r, Math.min(interval, left)));
    interval = Math.min(interval * 1.5, 2000);
  }
}

export function registerPanelTools(server: McpServer, backend: PanelBackend): void {
  server.registerTool(
    'run_panel',
    {
      description: PANEL_TOOL_DESCRIPTIONS.run_panel,
      inputSchema: {
        questions: z.array(PanelQuestionInput).min(1).max(MAX_QUESTIONS).describe('The questions, each {id?, text, type, options?, scale?}'),
        mindIds: z.array(id('A mind id')).max(1000).optional().describe('These minds (from get_all_minds or search_minds)'),
        tags: z.array(z.string().min(1).max(100)).max(50).optional().describe('Every mind carrying one of these tag names (case-insensitive)'),
        name: z.string().max(200).optional().describe('A name for the panel (default "N questions to M minds")'),
        selectedSimulationModel: z.string().optional().describe('mind-reasoner-standard (offline, the person\'s own words) or mind-reasoner-pro (an LLM, when configured)'),
        wait: z.boolean().optional().describe(`Wait for the results (default true, up to waitSeconds); false answers at once with the queued panel`),
        waitSeconds: z.number().min(0).max(MAX_PANEL_WAIT_SECONDS).optional().describe(`How long to wait at most (default ${PANEL_WAIT_SECONDS})`),
      },
    },
    ({ wait, waitSeconds, ...req }) =>
      run(async () => {
        const created = await backend.createPanel(req);
        const panel = wait === false ? created : await waitForPanel(backend, created.id, waitSeconds ?? PANEL_WAIT_SECONDS);
        return panelView(panel);
      }),
  );
  server.registerTool(
    'get_panel',
    {
      description: PANEL_TOOL_DESCRIPTIONS.get_panel,
      inputSchema: {
        panelId: id('The panel (panel.id from run_panel)'),
        includeAnswers: z.number().int().min(0).max(MAX_PANEL_ANSWERS).optional().describe(`Also this many answers, by question then mind (default 0, at most ${MAX_PANEL_ANSWERS})`),
        questionId: z.string().min(1).max(64).optional().describe("With includeAnswers: only this question's answers"),
      },
    },
    ({ panelId, includeAnswers, questionId }) =>
      run(async () => {
        const view = panelView(await backend.getPanel(panelId));
        if (!includeAnswers) return view;
        const { answers, count } = await backend.panelAnswers(panelId, { limit: includeAnswers, ...(questionId ? { questionId } : {}) });
        return { ...view, answers: answers.map(compactAnswer), answersCount: count };
      }),
  );
}
