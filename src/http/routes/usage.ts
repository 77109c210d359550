import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { errorResponses } from '../schemas.ts';
import { UsageQuery, UsageResponse } from '../schemas/usage.ts';
import type { Services } from '../services.ts';

export const usageRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/usage',
      {
        schema: {
          tags: ['usage'],
          summary: "The calling API key's usage over UTC days: responses, latency percentiles, simulations, snapshots",
          description:
            'Both dates are optional: the default is the last 30 days to today (UTC). At most 366 days at a time. ' +
            'Counts reach this answer within the meter\'s flush interval (USAGE_FLUSH_MS) when several API processes share the database.',
          querystring: UsageQuery,
          response: { 200: UsageResponse, ...errorResponses(400, 401) },
        },
      },
      (req) => {
        const auth = authOf(req);
        // The API scope always has a key; a key-less caller (none today) would see its whole account.
        return s.usage.report({ accountId: auth.accountId, apiKeyId: auth.apiKeyId ?? undefined }, s.usage.window(req.query));
      },
    );
  };
