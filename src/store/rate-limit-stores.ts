import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateLimitSettings } from '../config.ts';
import type { RateLimitCounter, RateLimitStore } from '../domain/rate-limits.ts';
import type { RateLimitWindowsRepo } from './db/repos/usage.ts';

// The library's own stores, reused as they are (it exports no ESM entry for them).
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => RateLimitStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => RateLimitStore;

/** Keys counted at once by the in-memory store (an LRU): beyond it the least recent key starts afresh. */
const MEMORY_KEYS = 50_000;
const REDIS_PREFIX = 'mindsim:ratelimit:';

/**
 * The database store for @fastify/rate-limit: the same fixed windows as its LocalStore and
 * RedisStore, in the rate_limit_windows table; one atomic upsert per counted request.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  constructor(
    private readonly repo: RateLimitWindowsRepo,
    private readonly prefix = '',
  ) {}

  incr(key: string, cb: (err: Error | null, res?: RateLimitCounter) => void, timeWindow: number): void {
    const now = Date.now();
    this.repo.hit(this.prefix + key, timeWindow, now).then(
      (w) => cb(null, { current: w.hits, ttl: Math.max(0, w.resetAt - now) }),
      (err: Error) => cb(err),
    );
  }

  read(key: string, cb: (err: Error | null, res?: RateLimitCounter) => void): void {
    const now = Date.now();
    this.repo.peek(this.prefix + key, now).then(
      (w) => cb(null, w ? { current: w.hits, ttl: Math.max(0, w.resetAt - now) } : { current: 0, ttl: 0 }),
      (err: Error) => cb(err),
    );
  }

  child(routeOptions: unknown): RateLimitStore {
    const r = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
    return new DatabaseRateLimitStore(this.repo, `${this.prefix}${r?.method ?? ''}${r?.url ?? ''}-`);
  }
}

/** The counters' store picked from configuration, and how to release it. */
export function openRateLimitStore(
  settings: RateLimitSettings,
  repo: RateLimitWindowsRepo,
  log: Logger,
): { store: RateLimitStore; close: () => Promise<void> } {
  if (settings.store === 'database') return { store: new DatabaseRateLimitStore(repo), close: async () => {} };
  if (settings.store === 'redis' && settings.redisUrl) {
    // No offline queue: while Redis is away a count fails at once (and the request passes uncounted)
    // instead of waiting for the reconnection.
    const redis = new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    let down = false;
    redis.on('error', (err: Error) => {
      if (!down) log.warn({ err: { message: err.message } }, 'redis (rate limits) unreachable');
      down = true;
    });
    redis.on('ready', () => (down = false));
    return {
      store: new RedisStore(false, false, redis, REDIS_PREFIX),
      close: async () => {
        if (redis.status === 'ready') await redis.quit().catch(() => undefined);
        redis.disconnect();
      },
    };
  }
  return { store: new LocalStore(false, false, MEMORY_KEYS), close: async () => {} };
}
