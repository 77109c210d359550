import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { MindParams, PageQuery, errorResponses } from '../schemas.ts';
import { CorrectSimulation, CorrectionDeleted, CorrectionEnvelope, CorrectionList, CorrectionParams, CreateCorrection, SimulationCorrectionParams } from '../schemas/corrections.ts';
import type { HttpSettings, Services } from '../services.ts';

/** A mind's corrections: what the person would really say, which the mind answers from afterwards (issue 32). */
export const correctionRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['corrections'];
    app.post(
      '/minds/:mindId/corrections',
      {
        schema: {
          tags,
          summary: 'Correct the mind: what the person would really say to a scenario',
          description:
            'The mind answers from the correction whenever it is asked this scenario or a paraphrase of it: the correction leads the answer and its evidence (`source: "correction"`), over what the transcript says.',
          params: MindParams,
          body: CreateCorrection,
          response: { 201: CorrectionEnvelope, ...errorResponses(400, 401, 403, 404, 410) },
        },
      },
      async (req, reply) => {
        const correction = await s.corrections.create(authOf(req), req.params.mindId, req.body);
        return reply.code(201).send({ correction });
      },
    );

    app.get(
      '/minds/:mindId/corrections',
      {
        schema: {
          tags,
          summary: "List a mind's corrections, newest first",
          description: '`{corrections, count}`: a page of corrections (`limit`, `cursor`; the next page in the `Link` header) and how many the mind has in all.',
          params: MindParams,
          querystring: PageQuery,
          response: { 200: CorrectionList, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req, reply) => {
        const page = await s.corrections.list(authOf(req), req.params.mindId, req.query.limit, req.query.cursor);
        return { corrections: sendPage(reply, cfg.publicUrl, req.query.limit, page), count: page.count };
      },
    );

    app.get(
      '/minds/:mindId/corrections/:correctionId',
      { schema: { tags, summary: 'Get a correction', params: CorrectionParams, response: { 200: CorrectionEnvelope, ...errorResponses(400, 401, 404, 410) } } },
      async (req) => ({ correction: await s.corrections.get(authOf(req), req.params.mindId, req.params.correctionId) }),
    );

    app.delete(
      '/minds/:mindId/corrections/:correctionId',
      {
        schema: {
          tags,
          summary: 'Delete a correction: the mind answers from its transcript again',
          params: CorrectionParams,
          response: { 200: CorrectionDeleted, ...errorResponses(400, 401, 404, 410) },
        },
      },
      (req) => s.corrections.delete(authOf(req), req.params.mindId, req.params.correctionId),
    );

    app.post(
      '/simulations/:simulationId/corrections',
      {
        schema: {
          tags,
          summary: "Correct a simulation's answer: the scenario is the simulation's latest message to the person",
          params: SimulationCorrectionParams,
          body: CorrectSimulation,
          response: { 201: CorrectionEnvelope, ...errorResponses(400, 401, 403, 404, 410) },
        },
      },
      async (req, reply) => {
        const correction = await s.corrections.fromSimulation(authOf(req), req.params.simulationId, req.body);
        return reply.code(201).send({ correction });
      },
    );
  };
