import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../domain/accounts.ts';
import { isFinalPanel } from '../../domain/panel.ts';
import type { PanelView } from '../../domain/panels.ts';
import { ANSWER_STATUSES, scalePointLabel } from '../../engines/questions.ts';
import { DomainError, notFound } from '../../kernel/errors.ts';
import type { Services } from '../../http/services.ts';
import { noteRefusal } from '../../http/plugins/audit.ts';
import { STATUS } from '../../http/plugins/errors.ts';
import { PanelQuestionInput, MAX_QUESTIONS } from '../../http/schemas/panels.ts';
import { viewerAuth } from '../guard.ts';
import { answersHref, num, questionChart } from '../panel-charts.ts';
import { render } from '../render.ts';

const PANELS_PAGE = 25;
const ANSWERS_PAGE = 20;

const blank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);
const PageQuery = z.object({ page: blank(z.coerce.number().int().min(1).max(100_000).default(1)) });
/** The drill-down of a bar: a question and one of its options, values or statuses (as the API's answers filter). */
const AnswersQuery = PageQuery.extend({
  questionId: blank(z.string().max(64).optional()),
  option: blank(z.string().max(200).optional()),
  value: blank(z.coerce.number().refine(Number.isFinite).optional()),
  status: blank(z.enum(ANSWER_STATUSES).optional()),
  mindId: blank(z.uuid().optional()),
});
const NewPanelForm = z.object({
  name: z.string().trim().max(200).default(''),
  tags: z.string().max(6000).default(''),
  mindIds: z.union([z.string(), z.array(z.string())]).optional(),
  questions: z.string().max(200_000).default(''),
  model: z.string().max(100).default('mind-reasoner-standard'),
});
const MINDS_OFFERED = 200;

/** A panel id from the path; anything but a UUID is simply not a panel (404, never a database error). */
function panelIdOf(req: FastifyRequest): string {
  const id = (req.params as { panelId: string }).panelId;
  if (!z.uuid().safeParse(id).success) throw notFound('The panel', 'panel_not_found');
  return id;
}

const progressOf = (p: PanelView) => ({ percent: p.total ? Math.round((p.done / p.total) * 100) : 0, live: !isFinalPanel(p.status) });

/** The live part of a panel's page: status, progress, actions and the results so far. */
async function liveView(s: Services, auth: AuthContext, panelId: string) {
  // One read of the answers' figures, not their words: the page polls this every second while the panel runs.
  const { panel, numbers } = await s.panels.withNumberValues(auth, panelId);
  const questions = (panel.results ?? []).map((result) => ({ result, chart: questionChart(panel.id, result, numbers.get(result.questionId)) }));
  return { panel, questions, ...progressOf(panel), num };
}

/** What an answers page lists, in words: "chose “Curiosity”", "had no evidence"… */
function filterWords(p: PanelView, q: z.infer<typeof AnswersQuery>): string[] {
  const question = p.questions.find((x) => x.id === q.questionId);
  const words: string[] = [];
  if (q.option !== undefined) words.push(`chose “${q.option}”`);
  if (q.value !== undefined) {
    const label = question?.type === 'likert' && question.scale ? scalePointLabel(question.scale, q.value) : undefined;
    words.push(`answered ${num(q.value)}${label ? ` (${label})` : ''}`);
  }
  if (q.status === 'no_evidence') words.push('had no evidence to answer from');
  if (q.status === 'answered' && q.option === undefined && q.value === undefined) words.push('answered');
  return words;
}

/**
 * Panels: the account's panels (paged), a panel's page with its progress polled while it runs and
 * a bar chart per question (SVG, a table of the same numbers), the answers behind each bar,
 * cancel, delete after a confirmation page, and a form to start one.
 */
export function panelPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/panels', async (req, reply) => {
      const auth = viewerAuth(req);
      const { page } = PageQuery.parse(req.query ?? {});
      const { panels, count } = await s.panels.list(auth, { limit: PANELS_PAGE, offset: (page - 1) * PANELS_PAGE });
      const rows = panels.map((p) => ({ panel: p, ...progressOf(p) }));
      return render(req, reply, 'panels', {
        title: 'Panels',
        rows,
        count,
        newer: page > 1 ? `/panels${page > 2 ? `?page=${page - 1}` : ''}` : null,
        older: page * PANELS_PAGE < count ? `/panels?page=${page + 1}` : null,
      });
    });

    const newPanelPage = async (auth: AuthContext, extra: Record<string, unknown> = {}) => {
      const [minds, tags] = await Promise.all([s.minds.list(auth, MINDS_OFFERED), s.tags.list(auth)]);
      return { title: 'New panel', minds: minds.items, tags, models: s.simulation.models(), form: {}, ...extra };
    };

    app.get('/panels/new', async (req, reply) => render(req, reply, 'panel-new', await newPanelPage(viewerAuth(req))));

    /** Starts a panel from the form: minds by tags and/or ticked, questions as JSON (the API's `questions`). */
    app.post('/panels', async (req, reply) => {
      const auth = viewerAuth(req);
      const form = NewPanelForm.parse(req.body ?? {});
      const tags = form.tags.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
      const mindIds = (Array.isArray(form.mindIds) ? form.mindIds : form.mindIds ? [form.mindIds] : []).filter((id) => z.uuid().safeParse(id).success);
      const again = async (error: string, status: number) => render(req, reply, 'panel-new', await newPanelPage(auth, { form: { ...form, mindIds }, error }), status);
      let parsed: unknown;
      try {
        parsed = JSON.parse(form.questions);
      } catch {
        return again('The questions are not valid JSON: give a list like the example.', 400);
      }
      const questions = z.array(PanelQuestionInput).min(1).max(MAX_QUESTIONS).safeParse(parsed);
      if (!questions.success) {
        const issue = questions.error.issues[0];
        const where = issue?.path.length ? ` (at ${issue.path.map((x) => (typeof x === 'number' ? x + 1 : String(x))).join(' › ')})` : '';
        return again(`Check the questions${where}: ${issue?.message ?? 'not a list of questions'}.`, 400);
      }
      try {
        const panel = await s.panels.create(auth, { name: form.name || undefined, tags, mindIds, questions: questions.data, selectedSimulationModel: form.model });
        return reply.redirect(`/panels/${panel.id}`, 303);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        noteRefusal(req, err); // a refusal's row names every mind the panel would have asked
        return again(err.message, STATUS[err.kind]);
      }
    });

    app.get('/panels/:panelId', async (req, reply) => {
      const auth = viewerAuth(req);
      const live = await liveView(s, auth, panelIdOf(req));
      return render(req, reply, 'panel', { title: live.panel.name, ...live });
    });

    /** The live part alone: htmx polls it every second while the panel is queued or running. */
    app.get('/panels/:panelId/live', async (req, reply) => {
      const auth = viewerAuth(req);
      return render(req, reply, 'partials/panel-live', await liveView(s, auth, panelIdOf(req)));
    });

    /** The answers behind a bar (or any filter of the API's), with the saying, confidence and evidence; paged. */
    app.get('/panels/:panelId/answers', async (req, reply) => {
      const auth = viewerAuth(req);
      const panelId = panelIdOf(req);
      const q = AnswersQuery.parse(req.query ?? {});
      const panel = await s.panels.get(auth, panelId, false);
      const { page, ...filter } = q;
      const { answers, count } = await s.panels.answers(auth, panelId, { ...filter, limit: ANSWERS_PAGE, offset: (page - 1) * ANSWERS_PAGE });
      const question = panel.questions.find((x) => x.id === q.questionId) ?? null;
      const link = (p: number) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(filter)) if (v !== undefined) params.set(k, String(v));
        if (p > 1) params.set('page', String(p));
        const qs = params.toString();
        return `/panels/${panelId}/answers${qs ? `?${qs}` : ''}`;
      };
      return render(req, reply, 'panel-answers', {
        title: `Answers · ${panel.name}`,
        panel,
        question,
        answers,
        count,
        first: count === 0 ? 0 : (page - 1) * ANSWERS_PAGE + 1,
        last: (page - 1) * ANSWERS_PAGE + answers.length,
        words: filterWords(panel, q),
        filtered: Object.values(filter).some((v) => v !== undefined),
        allOfQuestion: question && (q.option !== undefined || q.value !== undefined || q.status !== undefined) ? answersHref(panelId, question.id) : null,
        newer: page > 1 ? link(page - 1) : null,
        older: page * ANSWERS_PAGE < count ? link(page + 1) : null,
        labelOf: (questionId: string, value: number | null) => {
          const qn = panel.questions.find((x) => x.id === questionId);
          if (value === null || qn?.type !== 'likert' || !qn.scale) return null;
          return scalePointLabel(qn.scale, value) ?? null;
        },
        num,
      });
    });

    /** Stops a queued or running panel (the button asks for confirmation first), then back to it. */
    app.post('/panels/:panelId/cancel', async (req, reply) => {
      const auth = viewerAuth(req);
      const panelId = panelIdOf(req);
      await s.panels.cancel(auth, panelId);
      return reply.redirect(`/panels/${panelId}`, 303);
    });

    app.get('/panels/:panelId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      const panel = await s.panels.get(auth, panelIdOf(req), false);
      return render(req, reply, 'panel-delete', { title: `Delete ${panel.name}`, panel });
    });

    app.post('/panels/:panelId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      await s.panels.delete(auth, panelIdOf(req));
      return reply.redirect('/panels', 303);
    });
  };
}
