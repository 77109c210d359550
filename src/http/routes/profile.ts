import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { MindParams, MindProfile, errorResponses } from '../schemas.ts';
import type { Services } from '../services.ts';

export const profileRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/minds/:mindId/profile',
      {
        schema: {
          tags: ['minds'],
          summary: "The mind's persona profile: topics, stances, affect, stated behaviours, style and Q→A pairs, with evidence",
          params: MindParams,
          response: { 200: MindProfile, ...errorResponses(400, 401, 404, 409) },
        },
      },
      (req) => s.profiles.profile(authOf(req), req.params.mindId),
    );
  };
