import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_MODEL } from '../../engines/registry.ts';
import { authOf } from '../plugins/auth.ts';
import { ModelsResponse, SimulateBody, SimulateResponse, errorResponses } from '../schemas.ts';
import type { Services } from '../services.ts';

export const simulateRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/simulate',
      {
        schema: {
          tags: ['simulation'],
          summary: 'Simulate how the person behind a mind would think, feel, say and act in a scenario',
          body: SimulateBody,
          response: { 200: SimulateResponse, ...errorResponses(400, 401, 404, 409) },
        },
      },
      (req) => s.simulation.simulate(authOf(req), req.body),
    );

    app.get(
      '/models',
      { schema: { tags: ['simulation'], summary: 'List the simulation models', response: { 200: ModelsResponse, ...errorResponses(401) } } },
      () => s.simulation.models().map((m) => ({ ...m, default: m.id === DEFAULT_MODEL })),
    );
  };
