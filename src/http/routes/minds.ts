import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { CreateMindBody, CreateMindResponse, Mind, MindParams, UpdateMindBody, errorResponses } from '../schemas.ts';
import { MindEnvelope, MindsList, MindsQuery, PutMindBody, PutMindResponse, SearchQuery, SearchResult, SetTagsBody } from '../schemas/minds.ts';
import type { HttpSettings, Services } from '../services.ts';

export const mindRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['minds'];
    app.post(
      '/minds',
      {
        schema: {
          tags,
          summary: 'Create a mind (and its default digital twin)',
          body: CreateMindBody,
          response: { 200: CreateMindResponse, ...errorResponses(400, 401) },
        },
      },
      (req) => {
        const { name, tags: tagNames, ...details } = req.body;
        return s.minds.create(authOf(req), name, { ...details, tags: tagNames });
      },
    );

    app.get(
      '/minds',
      {
        schema: {
          tags,
          summary: 'List minds, newest first (optionally those carrying any of some tags)',
          querystring: MindsQuery,
          response: { 200: MindsList, ...errorResponses(400, 401) },
        },
      },
      async (req, reply) => {
        const { limit, cursor, tags: tagNames } = req.query;
        const page = await s.minds.list(authOf(req), limit, cursor, tagNames);
        return { minds: sendPage(reply, cfg.publicUrl, limit, page, tagNames?.length ? { tags: tagNames.join(',') } : {}) };
      },
    );

    // A static segment: the router tries it before /minds/:mindId, so "search" is never taken for an id.
    app.get(
      '/minds/search',
      {
        schema: {
          tags,
          summary: 'Search minds by name, email or tag name (partial, case-insensitive)',
          querystring: SearchQuery,
          response: { 200: SearchResult, ...errorResponses(400, 401) },
        },
      },
      (req) => s.minds.search(authOf(req), req.query.query, req.query.limit),
    );

    app.get(
      '/minds/:mindId',
      { schema: { tags, summary: 'Get a mind', params: MindParams, response: { 200: Mind, ...errorResponses(400, 401, 404, 410) } } },
      (req) => s.minds.get(authOf(req), req.params.mindId),
    );

    app.put(
      '/minds/:mindId',
      {
        schema: {
          tags,
          summary: 'Update a mind: name, email, imageUrl, socialMedia, scope, consent (the fields given); consent withdrawn (alone) erases it',
          params: MindParams,
          body: PutMindBody,
          response: { 200: PutMindResponse, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req) => ({ success: true as const, ...(await s.minds.change(authOf(req), req.params.mindId, req.body)) }),
    );

    app.patch(
      '/minds/:mindId',
      { schema: { tags, summary: 'Rename a mind', params: MindParams, body: UpdateMindBody, response: { 200: Mind, ...errorResponses(400, 401, 404, 410) } } },
      (req) => s.minds.rename(authOf(req), req.params.mindId, req.body.name),
    );

    app.put(
      '/minds/:mindId/tags',
      {
        schema: {
          tags,
          summary: 'Set the tags of a mind (exactly these; missing tags are made)',
          params: MindParams,
          body: SetTagsBody,
          response: { 200: MindEnvelope, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req) => ({ mind: await s.minds.setTags(authOf(req), req.params.mindId, req.body.tagNames) }),
    );

    app.delete(
      '/minds/:mindId',
      {
        schema: {
          tags,
          summary: 'Delete a mind with its twins, artifacts, files, snapshots and memories',
          params: MindParams,
          response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req, reply) => {
        await s.minds.delete(authOf(req), req.params.mindId);
        return reply.code(204).send(null);
      },
    );
  };
