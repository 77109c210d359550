import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PanelAnswerView } from '../../domain/panels.ts';
import { csvWriter } from '../csv.ts';
import { authOf } from '../plugins/auth.ts';
import { errorResponses } from '../schemas.ts';
import {
  CreatePanelBody,
  PanelAnswerList,
  PanelAnswersQuery,
  PanelDeleted,
  PanelEnvelope,
  PanelList,
  PanelParams,
  PanelsQuery,
} from '../schemas/panels.ts';
import type { Services } from '../services.ts';

const CSV_COLUMNS = ['mind_id', 'mind_name', 'question_id', 'question', 'type', 'status', 'choices', 'value', 'confidence', 'saying', 'evidence'];

/** Where an evidence passage is: its snapshot, and its time span or page. */
const evidenceRef = (e: PanelAnswerView['evidence'][number]) =>
  e.snapshotId + (e.start !== undefined ? `@${e.start}-${e.end ?? e.start}s` : e.page !== undefined ? `#page=${e.page}` : '');

/** One CSV row per answer; several choices joined by "; ", evidence references by " | "; value and confidence are numbers (csvWriter leaves them as they are). */
const csvRow = (a: PanelAnswerView) => [
  a.mindId,
  a.mindName,
  a.questionId,
  a.question,
  a.type,
  a.status,
  a.choices.join('; '),
  a.value ?? '',
  a.confidence,
  a.saying,
  a.evidence.map(evidenceRef).join(' | '),
];

/** Panels: a questionnaire put to many minds, run by workers, read as distributions and answers. */
export const panelRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['panel'];
    app.post(
      '/panels',
      {
        schema: {
          tags,
          summary: 'Ask many minds many typed questions (a panel): queued at once, answered by workers',
          description:
            'Choose the minds by `mindIds`, `tags` or both. Each question is open, single, multiple, likert or number. Minds without a completed ' +
            'snapshot are left out (`skippedMinds`); 409 when none is left, 413 when minds × questions exceeds PANEL_MAX_ANSWERS. A mind whose ' +
            'words do not bear on a question answers `no_evidence`, counted apart in the results, never a guess. Follow progress with GET /panels/{panelId}.',
          body: CreatePanelBody,
          response: { 202: PanelEnvelope, ...errorResponses(400, 401, 404, 409, 413) },
        },
      },
      async (req, reply) => {
        const panel = await s.panels.create(authOf(req), req.body);
        return reply.status(202).send({ panel });
      },
    );

    app.get(
      '/panels',
      { schema: { tags, summary: "List the account's panels, newest first, with their progress", querystring: PanelsQuery, response: { 200: PanelList, ...errorResponses(400, 401) } } },
      (req) => s.panels.list(authOf(req), req.query),
    );

    app.get(
      '/panels/:panelId',
      {
        schema: {
          tags,
          summary: 'A panel: its status, progress, and results per question (and per tag when chosen by tags)',
          params: PanelParams,
          response: { 200: PanelEnvelope, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => ({ panel: await s.panels.get(authOf(req), req.params.panelId) }),
    );

    app.get(
      '/panels/:panelId/answers',
      {
        schema: {
          tags,
          summary: "A panel's answers, one per mind and question, with the saying, confidence and evidence (JSON paged, or CSV)",
          description: `\`format=csv\` answers text/csv with every matching answer and the columns ${CSV_COLUMNS.join(', ')}.`,
          params: PanelParams,
          querystring: PanelAnswersQuery,
          response: { 200: PanelAnswerList, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const { format, limit, offset, ...filter } = req.query;
        const auth = authOf(req);
        if (format === 'json') return s.panels.answers(auth, req.params.panelId, { limit, offset, ...filter });
        // Checked before the body starts, so an unknown panel or question is a JSON error with its status.
        const answers = await s.panels.answerStream(auth, req.params.panelId, filter);
        const rows = Readable.from(
          (async function* () {
            for await (const a of answers) yield csvRow(a);
          })(),
        );
        reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="panel-${req.params.panelId}.csv"`);
        // A stream is sent as it is (the 200 schema describes the JSON format only).
        return reply.send(rows.pipe(csvWriter(CSV_COLUMNS)) as never);
      },
    );

    app.post(
      '/panels/:panelId/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel a queued or running panel: no more minds start; the answers stored so far are kept',
          params: PanelParams,
          response: { 200: PanelEnvelope, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (req) => ({ panel: await s.panels.cancel(authOf(req), req.params.panelId) }),
    );

    app.delete(
      '/panels/:panelId',
      {
        schema: { tags, summary: 'Delete a panel with its answers (a running one stops)', params: PanelParams, response: { 200: PanelDeleted, ...errorResponses(400, 401, 404) } },
      },
      (req) => s.panels.delete(authOf(req), req.params.panelId),
    );
  };
