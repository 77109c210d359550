/**
 * Panels (`/panels`): a questionnaire put to many minds, chosen by id or by tag. Creating one
 * checks everything a client could get wrong (the questions, the minds, the size), stores the
 * panel with one unit per mind that has a memory to answer from, and enqueues a job per unit in
 * the same transaction; workers answer them (panel-runner.ts). Results are computed from the
 * stored answers on every read (panel-results.ts).
 */
import type { EngineRegistry } from '../engines/registry.ts';
import type { QuestionType } from '../engines/questions.ts';
import { DomainError, conflict, invalid, notFound } from '../kernel/errors.ts';
import { foldKey } from '../kernel/name-keys.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { AnswerFilter, AnswerRow } from '../store/db/repos/panel-answers.ts';
import type { MindRow } from '../store/db/repos/minds.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { ConsentPolicy, consentWithdrawn, panelUses, usesLanguageModel } from './consent.ts';
import { resolveModel } from './models.ts';
import { oncePerKey } from './tags.ts';
import {
  RUN_PANEL_UNIT,
  normalizeQuestions,
  type AnswerFigures,
  type NewUnit,
  type PanelRecord,
  type QuestionInput,
  type SkippedMind,
  type UnitCounts,
} from './panel.ts';
import { questionResults, segmentResults, type QuestionResult, type SegmentResult } from './panel-results.ts';

export interface CreatePanelRequest {
  name?: string | undefined;
  mindIds?: string[] | undefined;
  tags?: string[] | undefined;
  questions: QuestionInput[];
  selectedSimulationModel?: string | undefined;
}

/** A panel as clients see it: the record, its progress, and (on its own page) its results. */
export interface PanelView extends Omit<PanelRecord, 'accountId' | 'skipped'> {
  /** Answers expected: minds × questions. */
  total: number;
  /** Answers stored so far. */
  done: number;
  minds: number;
  mindsDone: number;
  mindsFailed: number;
  skippedMinds: SkippedMind[];
  results?: QuestionResult[];
  segments?: SegmentResult[];
}

export interface PanelSettings {
  /** The most answers (minds × questions) one panel may ask for. */
  maxAnswers: number;
  strictModels: boolean;
}

const panelNotFound = () => notFound('The panel', 'panel_not_found');

/** Which answers a client lists: a question (by its id), a mind, a status, an option or a value. */
export interface AnswerQuery {
  questionId?: string | undefined;
  mindId?: string | undefined;
  status?: AnswerFilter['status'] | undefined;
  option?: string | undefined;
  value?: number | undefined;
}

/** Answers read per query by `answerStream`. */
const STREAM_PAGE = 1000;

/** The repository's filter for a query: the question id made its index (400 for a question the panel does not have). */
function filterOf(panel: PanelRecord, q: AnswerQuery): AnswerFilter {
  const filter: AnswerFilter = {};
  if (q.questionId !== undefined) {
    const index = panel.questions.findIndex((x) => x.id === q.questionId);
    if (index < 0) throw invalid('unknown_question', `The panel has no question "${q.questionId}".`, { field: 'questionId' });
    filter.questionIndex = index;
  }
  if (q.mindId !== undefined) filter.mindId = q.mindId;
  if (q.status !== undefined) filter.status = q.status;
  if (q.option !== undefined) filter.option = q.option;
  if (q.value !== undefined) filter.value = q.value;
  return filter;
}

/** The answer of one mind to one question, as the API lists it. */
export interface PanelAnswerView extends Omit<AnswerRow, 'unitSeq' | 'questionIndex'> {
  questionId: string;
  question: string;
  type: QuestionType;
}

export class PanelService {
  private readonly enqueuedListeners: Array<() => void> = [];

  private readonly store: Store;
  private readonly engines: EngineRegistry;
  private readonly settings: PanelSettings;
  private readonly rt: Runtime;
  /** Refuses minds whose consent does not cover panels (and llm), when the account requires consent. */
  private readonly consent: ConsentPolicy;
  constructor(store: Store, engines: EngineRegistry, settings: PanelSettings, rt: Runtime) {
    this.store = store;
    this.engines = engines;
    this.settings = settings;
    this.rt = rt;
    this.consent = new ConsentPolicy(store.repos, rt);
  }

  /** Calls `fn` after a panel and its jobs are committed (the composition root wakes this process's worker). */
  onEnqueued(fn: () => void): void {
    this.enqueuedListeners.push(fn);
  }

  async create(auth: AuthContext, req: CreatePanelRequest): Promise<PanelView> {
    const questions = normalizeQuestions(req.questions);
    const resolved = resolveModel(this.engines, this.settings.strictModels, req.selectedSimulationModel);
    const mindIds = [...new Set(req.mindIds ?? [])];
    const tagNames = oncePerKey(req.tags ?? []);
    const { minds, tagsOf } = await this.select(auth, mindIds, tagNames);
    const ready = await this.store.repos.snapshots.mindsWithCompleted(minds.map((m) => m.id));
    const skipped: SkippedMind[] = minds.filter((m) => !ready.has(m.id)).map((m) => ({ mindId: m.id, name: m.name, reason: 'no_completed_snapshot' }));
    const answering = minds.filter((m) => ready.has(m.id));
    if (answering.length === 0) {
      throw conflict('no_ready_minds', 'None of the selected minds has a completed snapshot yet: wait until a snapshot of theirs is "completed".', {
        skippedMinds: skipped,
      });
    }
    await this.consent.checkAll(auth.accountId, answering, panelUses(usesLanguageModel(resolved.model)));
    const answers = answering.length * questions.length;
    if (answers > this.settings.maxAnswers) {
      throw new DomainError(
        'too_large',
        'panel_too_large',
        `This panel asks for ${answers} answers (${answering.length} minds × ${questions.length} questions); the limit is ${this.settings.maxAnswers}: split it into smaller panels.`,
        { limit: this.settings.maxAnswers, answers, minds: answering.length, questions: questions.length },
      );
    }
    const at = iso(this.rt.now());
    const id = this.rt.newId();
    const units: NewUnit[] = answering.map((m, seq) => ({ id: this.rt.newId(), mindId: m.id, mindName: m.name, seq, tags: tagsOf(m.id) }));
    const selection = { ...(mindIds.length ? { mindIds } : {}), ...(tagNames.length ? { tags: tagNames } : {}) };
    const name = req.name?.trim() || `${questions.length} question${questions.length === 1 ? '' : 's'} to ${answering.length} mind${answering.length === 1 ? '' : 's'}`;
    await this.store.transaction(async ({ repos, queue }) => {
      await repos.panels.insert({ id, accountId: auth.accountId, name, status: 'queued', model: resolved.model, selection, questions, skipped, createdAt: at }, units);
      // One account's units take turns with other accounts' jobs.
      for (const u of units) await queue.enqueue(RUN_PANEL_UNIT, { panelId: id, unitId: u.id }, { group: auth.accountId });
    });
    for (const fn of this.enqueuedListeners) fn();
    return this.get(auth, id, false);
  }

  /** Newest first, without results. */
  async list(auth: AuthContext, q: { limit: number; offset: number }): Promise<{ panels: PanelView[]; count: number }> {
    const { panels, panelAnswers } = this.store.repos;
    const [records, count] = await Promise.all([panels.page(auth.accountId, q.limit, q.offset), panels.count(auth.accountId)]);
    const ids = records.map((p) => p.id);
    const [units, answers] = await Promise.all([panels.unitCounts(ids), panelAnswers.counts(ids)]);
    return { panels: records.map((p) => view(p, units.get(p.id), answers.get(p.id) ?? 0)), count };
  }

  /** The panel with its progress and, with `withResults`, its results per question and per selection tag. */
  async get(auth: AuthContext, panelId: string, withResults = true): Promise<PanelView> {
    return (await this.read(auth, panelId, withResults)).view;
  }

  /**
   * The panel with its results, and the answered values of each number question (a histogram's
   * input): the dashboard's page, from one read of the answers' figures (no words, no evidence).
   */
  async withNumberValues(auth: AuthContext, panelId: string): Promise<{ panel: PanelView; numbers: Map<string, number[]> }> {
    const { view: panel, record, figures } = await this.read(auth, panelId, true);
    const numbers = new Map<string, number[]>();
    const numeric = new Map(record.questions.flatMap((q, i): Array<[number, string]> => (q.type === 'number' ? [[i, q.id]] : [])));
    for (const a of figures) {
      const id = numeric.get(a.questionIndex);
      if (id === undefined || a.status !== 'answered' || a.value === null) continue;
      const values = numbers.get(id) ?? [];
      values.push(a.value);
      numbers.set(id, values);
    }
    return { panel, numbers };
  }

  private async read(auth: AuthContext, panelId: string, withResults: boolean): Promise<{ view: PanelView; record: PanelRecord; figures: AnswerFigures[] }> {
    const panel = await this.require(auth, panelId);
    const { panels, panelAnswers } = this.store.repos;
    const [units, answers] = await Promise.all([panels.unitCounts([panel.id]), panelAnswers.counts([panel.id])]);
    const out = view(panel, units.get(panel.id), answers.get(panel.id) ?? 0);
    if (!withResults) return { view: out, record: panel, figures: [] };
    const figures = await panelAnswers.figures(panel.id);
    out.results = questionResults(panel.questions, figures);
    if (panel.selection.tags?.length) out.segments = segmentResults(panel.selection.tags, await panels.units(panel.id), panel.questions, figures);
    return { view: out, record: panel, figures };
  }

  /** A page of answers (by question, then mind), filtered e.g. to one option of one question. */
  async answers(auth: AuthContext, panelId: string, q: AnswerQuery & { limit: number; offset: number }): Promise<{ answers: PanelAnswerView[]; count: number }> {
    const panel = await this.require(auth, panelId);
    const { rows, count } = await this.store.repos.panelAnswers.page(panel.id, filterOf(panel, q), q.limit, q.offset);
    return { answers: rows.map((r) => answerView(panel, r)), count };
  }

  /**
   * Every answer, filtered as `answers` (the CSV export): the panel and the filter are checked now,
   * so a mistake is an error before anything is sent; the rows are read 1,000 at a time as taken.
   */
  async answerStream(auth: AuthContext, panelId: string, q: AnswerQuery): Promise<AsyncGenerator<PanelAnswerView>> {
    const panel = await this.require(auth, panelId);
    const filter = filterOf(panel, q);
    const { panelAnswers } = this.store.repos;
    return (async function* () {
      for (let offset = 0; ; offset += STREAM_PAGE) {
        const rows = await panelAnswers.rows(panel.id, filter, STREAM_PAGE, offset);
        yield* rows.map((r) => answerView(panel, r));
        if (rows.length < STREAM_PAGE) return;
      }
    })();
  }

  /** Stops a queued or running panel: no unit starts any more; answers stored so far are kept. */
  async cancel(auth: AuthContext, panelId: string): Promise<PanelView> {
    const panel = await this.require(auth, panelId);
    const moved = await this.store.transaction(async ({ repos }) => {
      if (!(await repos.panels.move(panel.id, 'cancel', iso(this.rt.now())))) return false;
      await repos.panels.dropJobs(panel.id);
      return true;
    });
    if (!moved) {
      const now = await this.require(auth, panelId);
      throw conflict('panel_finished', `The panel is ${now.status} already: only a queued or running panel can be cancelled.`, { status: now.status });
    }
    return this.get(auth, panelId);
  }

  async delete(auth: AuthContext, panelId: string): Promise<{ message: 'Panel deleted successfully'; panelId: string }> {
    const deleted = await this.store.transaction(({ repos }) => repos.panels.delete(auth.accountId, panelId));
    if (!deleted) throw panelNotFound();
    await this.store.scrub();
    return { message: 'Panel deleted successfully', panelId };
  }

  private async require(auth: AuthContext, panelId: string): Promise<PanelRecord> {
    const panel = await this.store.repos.panels.byId(auth.accountId, panelId);
    if (!panel) throw panelNotFound();
    return panel;
  }

  /**
   * The minds asked for: every id (each must be the account's), then every mind carrying one of
   * the tags (case-insensitively; unknown tags match nothing), each once, in that order; and per
   * mind the selection tags it carries.
   */
  private async select(auth: AuthContext, ids: readonly string[], tagNames: readonly string[]): Promise<{ minds: MindRow[]; tagsOf: (mindId: string) => string[] }> {
    const { minds: mindsRepo, tags: tagsRepo } = this.store.repos;
    if (ids.length === 0 && tagNames.length === 0) {
      throw invalid('panel_selection_required', 'Choose the minds: give mindIds, tags, or both.', { field: 'mindIds' });
    }
    const byId = await mindsRepo.withIds(auth.accountId, ids);
    const missing = ids.filter((id) => !byId.some((m) => m.id === id));
    if (missing.length > 0) {
      const [withdrawn] = await this.store.repos.consent.withdrawals(auth.accountId, missing);
      if (withdrawn) throw consentWithdrawn(withdrawn);
      throw new DomainError('not_found', 'mind_not_found', 'The mind was not found.', { mindIds: missing });
    }
    const found = new Map(ids.map((id) => [id, byId.find((m) => m.id === id) as MindRow]));
    const tagRows = await tagsRepo.byKeys(auth.accountId, tagNames.map(foldKey));
    for (const m of await mindsRepo.allTagged(auth.accountId, tagRows.map((t) => t.id))) if (!found.has(m.id)) found.set(m.id, m);
    const minds = [...found.values()];
    if (minds.length === 0) throw invalid('panel_no_minds', `No mind of this account carries the tags ${tagNames.map((t) => `"${t}"`).join(', ')}.`, { field: 'tags' });
    const carried = new Map<string, Set<string>>();
    for (const row of await tagsRepo.ofMinds(auth.accountId, minds.map((m) => m.id))) {
      const set = carried.get(row.mind_id) ?? new Set<string>();
      set.add(row.name_key);
      carried.set(row.mind_id, set);
    }
    return { minds, tagsOf: (mindId) => tagNames.filter((t) => carried.get(mindId)?.has(foldKey(t))) };
  }
}

function view(p: PanelRecord, units: UnitCounts = { pending: 0, done: 0, failed: 0 }, answers: number): PanelView {
  const { accountId: _account, skipped, ...rest } = p;
  const minds = units.pending + units.done + units.failed;
  return { ...rest, total: minds * p.questions.length, done: answers, minds, mindsDone: units.done, mindsFailed: units.failed, skippedMinds: skipped };
}

function answerView(panel: PanelRecord, r: AnswerRow): PanelAnswerView {
  const { unitSeq: _seq, questionIndex, ...rest } = r;
  const q = panel.questions[questionIndex];
  return { ...rest, questionId: q?.id ?? String(questionIndex), question: q?.text ?? '', type: q?.type ?? 'open' };
}
