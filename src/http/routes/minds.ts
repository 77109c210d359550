import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import {
  CreateMindBody,
  CreateMindResponse,
  Mind,
  MindDetail,
  MindParams,
  PageQuery,
  UpdateMindBody,
  errorResponses,
} from '../schemas.ts';
import type { HttpSettings, Services } from '../services.ts';

export const mindRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['minds'];
    app.post(
      '/minds',
      { schema: { tags, summary: 'Create a mind (and its default digital twin)', body: CreateMindBody, response: { 200: CreateMindResponse, ...errorResponses(400, 401) } } },
      (req) => s.minds.create(authOf(req), req.body.name),
    );

    app.get(
      '/minds',
      { schema: { tags, summary: 'List minds, newest first', querystring: PageQuery, response: { 200: z.array(Mind), ...errorResponses(400, 401) } } },
      async (req, reply) => {
        const page = await s.minds.list(authOf(req), req.query.limit, req.query.cursor);
        return sendPage(reply, cfg.publicUrl, req.query.limit, page);
      },
    );

    app.get(
      '/minds/:mindId',
      { schema: { tags, summary: 'Get a mind', params: MindParams, response: { 200: MindDetail, ...errorResponses(400, 401, 404) } } },
      (req) => s.minds.get(authOf(req), req.params.mindId),
    );

    app.patch(
      '/minds/:mindId',
      { schema: { tags, summary: 'Rename a mind', params: MindParams, body: UpdateMindBody, response: { 200: Mind, ...errorResponses(400, 401, 404) } } },
      (req) => s.minds.rename(authOf(req), req.params.mindId, req.body.name),
    );

    app.delete(
      '/minds/:mindId',
      {
        schema: {
          tags,
          summary: 'Delete a mind with its twins, artifacts, files, snapshots and memories',
          params: MindParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        await s.minds.delete(authOf(req), req.params.mindId);
        return reply.code(204).send(null);
      },
    );
  };
