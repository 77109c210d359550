import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { MindParams, errorResponses } from '../schemas.ts';
import { TwinAnswer, TwinBody, TwinList, TwinParams } from '../schemas/snapshots.ts';
import type { Services } from '../services.ts';

/** A mind's digital twins: list, add, rename (the default twin, made with the mind, is never deleted). */
export const digitalTwinRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['digital twins'];
    app.get(
      '/minds/:mindId/digital-twins',
      { schema: { tags, summary: "List a mind's digital twins, the default first", params: MindParams, response: { 200: TwinList, ...errorResponses(400, 401, 404) } } },
      async (req) => ({ digitalTwins: await s.twins.list(authOf(req), req.params.mindId) }),
    );

    app.post(
      '/minds/:mindId/digital-twins',
      {
        schema: {
          tags,
          summary: 'Add a digital twin to a mind',
          description: 'Link snapshots to it (`POST …/snapshots/{snapshotId}/link`) and simulate it with `digitalTwinId`.',
          params: MindParams,
          body: TwinBody,
          response: { 200: TwinAnswer, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => ({ digitalTwin: await s.twins.create(authOf(req), req.params.mindId, req.body.name) }),
    );

    app.patch(
      '/minds/:mindId/digital-twins/:twinId',
      { schema: { tags, summary: 'Rename a digital twin', params: TwinParams, body: TwinBody, response: { 200: TwinAnswer, ...errorResponses(400, 401, 404) } } },
      async (req) => ({ digitalTwin: await s.twins.rename(authOf(req), req.params.mindId, req.params.twinId, req.body.name) }),
    );
  };
