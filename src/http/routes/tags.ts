import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { errorResponses } from '../schemas.ts';
import { RenameTagBody, TagDeleted, TagEnvelope, TagList, TagParams } from '../schemas/minds.ts';
import type { Services } from '../services.ts';

/** Account-wide tags: list, rename, delete (a mind's tags are set with PUT /minds/{mindId}/tags). */
export const tagRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['tags'];
    app.get(
      '/tags',
      { schema: { tags, summary: "The account's tags", response: { 200: TagList, ...errorResponses(401) } } },
      async (req) => ({ tags: await s.tags.list(authOf(req)) }),
    );

    app.put(
      '/tags/:tagId',
      {
        schema: {
          tags,
          summary: 'Rename a tag (409 when another tag has the name, whatever its case)',
          params: TagParams,
          body: RenameTagBody,
          response: { 200: TagEnvelope, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (req) => ({ tag: await s.tags.rename(authOf(req), req.params.tagId, req.body.name) }),
    );

    app.delete(
      '/tags/:tagId',
      {
        schema: {
          tags,
          summary: 'Delete a tag (it is removed from every mind)',
          params: TagParams,
          response: { 200: TagDeleted, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        await s.tags.delete(authOf(req), req.params.tagId);
        return { message: 'Tag deleted successfully' as const, tagId: req.params.tagId };
      },
    );
  };
