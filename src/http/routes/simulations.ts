import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { errorResponses } from '../schemas.ts';
import { SimulationDeleted, SimulationDetail, SimulationList, SimulationParams, SimulationsQuery } from '../schemas/simulations.ts';
import type { Services } from '../services.ts';

/** The simulation history: every simulate call is a turn of a stored conversation. */
export const simulationRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['simulation'];
    app.get(
      '/simulations',
      {
        schema: {
          tags,
          summary: "List the account's simulations (conversations), newest first, with the total count",
          querystring: SimulationsQuery,
          response: { 200: SimulationList, ...errorResponses(400, 401, 404) },
        },
      },
      (req) => s.simulations.list(authOf(req), req.query),
    );

    app.get(
      '/simulations/:simulationId',
      {
        schema: {
          tags,
          summary: 'A simulation with its messages, oldest first (a background turn: its status, then its answer)',
          params: SimulationParams,
          response: { 200: SimulationDetail, ...errorResponses(400, 401, 404) },
        },
      },
      (req) => s.simulations.get(authOf(req), req.params.simulationId),
    );

    app.delete(
      '/simulations/:simulationId',
      {
        schema: {
          tags,
          summary: 'Delete a simulation with its messages',
          params: SimulationParams,
          response: { 200: SimulationDeleted, ...errorResponses(400, 401, 404) },
        },
      },
      (req) => s.simulations.delete(authOf(req), req.params.simulationId),
    );
  };
