import fastifyPlugin from 'fastify-plugin';
import type { Services } from '../services.ts';
import { identifyApiKey, rejectUnidentified } from './auth.ts';
import { meterUsage, registerRateLimit } from './rate-limit.ts';

/**
 * The public API's request pipeline, registered by every API surface (the REST scope and /mcp):
 * the API key and its account, the per-key rate limit (counted before a 401 so keys cannot be
 * guessed at speed), 401 for a request without a valid key, then the usage meter. Errors are
 * answered by the app-wide handler (plugins/errors.ts). Its hooks apply to the scope that registers it.
 */
export const apiPipeline = fastifyPlugin<{ services: Pick<Services, 'accounts' | 'rateLimits' | 'usage'> }>(
  async (app, { services }) => {
    identifyApiKey(app, services.accounts);
    registerRateLimit(app, services.rateLimits);
    rejectUnidentified(app);
    meterUsage(app, services.usage);
  },
  { name: 'mindsim-api-pipeline', fastify: '5.x' },
);
