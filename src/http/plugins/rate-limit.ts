import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { RateLimits } from '../../domain/rate-limits.ts';
import type { UsageService } from '../../domain/usage.ts';
import { ErrorBody } from '../schemas.ts';
import { errorBody } from './errors.ts';

/**
 * Per-key rate limits on the scope it is registered in, between `identifyApiKey` (the key and its
 * tier are known) and `rejectUnidentified`: @fastify/rate-limit counts in the configured store,
 * and this hook answers with X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix
 * seconds) on every response, or 429 `rate_limited` with Retry-After (seconds) beyond the limit.
 * A request without a valid key is counted per client address at the standard limit (and then
 * answered 401), so its response has the headers too and keys cannot be guessed at speed.
 */
export const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

export async function registerRateLimit(api: FastifyInstance, limits: RateLimits): Promise<void> {
  if (!limits.enabled) return;
  // In the OpenAPI document every limited route may answer 429 (the body is the usual Error).
  api.addHook('onRoute', (route) => {
    if (route.schema?.response && typeof route.schema.response === 'object') {
      route.schema = { ...route.schema, response: { ...(route.schema.response as object), 429: ErrorBody } };
    }
  });
  // The plugin only decorates a scope that has no createRateLimit yet: one inherited from a parent
  // scope would count in that registration's store, with its settings.
  if (api.hasDecorator('createRateLimit')) throw new Error('@fastify/rate-limit is already registered above the API scope');
  const shared = limits.store;
  await api.register(fastifyRateLimit, {
    global: false, // no per-route hooks of its own: the one hook below covers the scope
    // The plugin builds its store with `new Store(params)`; hand it the one RateLimits peeks into.
    store: function SharedStore() {
      return shared;
    } as unknown as fastifyRateLimit.FastifyRateLimitStoreCtor,
    timeWindow: limits.windowMs,
    max: (req) => limits.limitFor(req.auth?.tier ?? 'standard'),
    keyGenerator: (req) => {
      const auth = req.auth;
      if (!auth) return `address:${req.ip}`;
      return auth.apiKeyId ?? `account:${auth.accountId}`; // per key; per account for a key-less (session) caller
    },
  });
  const limiter = api.createRateLimit();

  api.addHook('onRequest', async (req, reply) => {
    let r;
    try {
      r = await limiter(req);
    } catch (err) {
      // The store is unreachable (Redis or the database): let the request through rather than fail it.
      req.log.warn({ err }, 'rate limiter unavailable; request not counted');
      return;
    }
    if (r.isAllowed) return;
    reply
      .header('X-RateLimit-Limit', r.max)
      .header('X-RateLimit-Remaining', r.remaining)
      .header('X-RateLimit-Reset', Math.ceil((Date.now() + r.ttl) / 1000));
    if (r.isExceeded) {
      const after = Math.max(1, r.ttlInSeconds);
      return reply
        .code(429)
        .header('Retry-After', after)
        .send(
          errorBody('rate_limited', `Rate limit of ${r.max} requests per minute ${req.auth ? 'for this API key' : 'without a valid API key'} exceeded; retry in ${after} s.`, {
            limit: r.max,
            retryAfterSeconds: after,
          }),
        );
    }
  });
}

/** Counts every authenticated response of the scope in the usage meter (in memory; flushed in the background). */
export function meterUsage(api: FastifyInstance, usage: UsageService): void {
  api.addHook('onResponse', (req, _reply, done) => {
    if (req.auth) usage.record(req.auth.accountId);
    done();
  });
}
