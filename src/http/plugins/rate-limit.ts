import type { FastifyInstance } from 'fastify';
import type { RateLimitCounter, RateLimits } from '../../domain/rate-limits.ts';
import type { UsageService } from '../../domain/usage.ts';
import { ErrorBody } from '../schemas.ts';
import { errorBody } from './errors.ts';

/**
 * Per-key rate limits on the scope it is registered in, between `identifyApiKey` (the key and its
 * tier are known) and `rejectUnidentified`: each request is counted in the configured store
 * (@fastify/rate-limit's LocalStore or RedisStore, or our database store) and answered with
 * X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix seconds), or 429
 * `rate_limited` with Retry-After (seconds) beyond the limit. A request without a valid key is
 * counted per client address at the standard limit (and then answered 401), so its response has
 * the headers too and keys cannot be guessed at speed.
 *
 * The hook calls the store itself rather than through the plugin's `createRateLimit`, whose
 * key, limit and store calls are each awaited: four promise hops per request, about 2 µs of the
 * status route's ~25 µs (BENCHMARKS.md). Counting, windows and expiry stay the stores' own.
 */
export const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

export function registerRateLimit(api: FastifyInstance, limits: RateLimits): void {
  if (!limits.enabled) return;
  // In the OpenAPI document every limited route may answer 429 (the body is the usual Error).
  api.addHook('onRoute', (route) => {
    if (route.schema?.response && typeof route.schema.response === 'object') {
      route.schema = { ...route.schema, response: { ...(route.schema.response as object), 429: ErrorBody } };
    }
  });
  const store = limits.store;

  api.addHook('onRequest', (req, reply, done) => {
    const auth = req.auth;
    const max = limits.limitFor(auth?.tier ?? 'standard');
    // Per key; per account for a key-less (session) caller; per address without a valid key.
    const key = auth ? (auth.apiKeyId ?? `account:${auth.accountId}`) : `address:${req.ip}`;
    const counted = (err: Error | null, res?: RateLimitCounter) => {
      if (err || !res) {
        // The store is unreachable (Redis or the database): let the request through rather than fail it.
        req.log.warn({ err }, 'rate limiter unavailable; request not counted');
        return done();
      }
      reply
        .header('X-RateLimit-Limit', max)
        .header('X-RateLimit-Remaining', Math.max(0, max - res.current))
        .header('X-RateLimit-Reset', Math.ceil((Date.now() + res.ttl) / 1000));
      if (res.current <= max) return done();
      const after = Math.max(1, Math.ceil(res.ttl / 1000));
      const message = `Rate limit of ${max} requests per minute ${auth ? 'for this API key' : 'without a valid API key'} exceeded; retry in ${after} s.`;
      reply
        .code(429)
        .header('Retry-After', after)
        .send({ ...errorBody(429, 'rate_limited', message, { limit: max, retryAfterSeconds: after }, req.id), retryAfter: after });
    };
    try {
      store.incr(key, counted, limits.windowMs, max);
    } catch (err) {
      counted(err as Error);
    }
  });
}

/**
 * Counts every authenticated response of the scope in the usage meter (in memory; flushed in the
 * background): per account, and per API key with its outcome (below 400 a success), its latency
 * (Fastify's, from the request's arrival to the response's end) and whether its route is a psychometrics one.
 */
export function meterUsage(api: FastifyInstance, usage: UsageService): void {
  api.addHook('onResponse', (req, reply, done) => {
    const auth = req.auth;
    if (auth) {
      const metered = auth.apiKeyId
        ? {
            apiKeyId: auth.apiKeyId,
            statusCode: reply.statusCode,
            latencyMs: reply.elapsedTime,
            psychometrics: req.routeOptions.url?.includes('/psychometrics') ?? false,
          }
        : undefined;
      usage.record(auth.accountId, metered);
    }
    done();
  });
}
