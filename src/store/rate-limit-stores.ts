import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
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
type RedisStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string) => RateLimitStore;

/** Keys counted at once by the in-memory store (an LRU): beyond it the least recent key starts afresh. */
const MEMORY_KEYS = 50_000;
const REDIS_PREFIX = 'mindsim:ratelimit:';

/** Requests a process may take from the shared count at once: a block is at most this big… */
const MAX_BLOCK = 100;
/** …and at most this share of what is left of the key's window, so no process hoards the end of it. */
const BLOCK_SHARE = 16;
/** Keys whose blocks a process remembers (an LRU; a forgotten block's unused requests are lost for its window). */
const LEASED_KEYS = 50_000;

/** Requests this process has taken from a key's shared count and not yet used. */
interface Lease {
  resetAt: number;
  /** The shared count right after this process last took a block. */
  counted: number;
  /** Requests of the block not yet used. */
  unused: number;
}

type Cb = (err: Error | null, res?: RateLimitCounter) => void;

/**
 * The database store for @fastify/rate-limit: the same fixed windows as its LocalStore and
 * RedisStore, in the rate_limit_windows table, shared by every process on the database.
 *
 * Each process takes requests from a key's shared count in blocks (one atomic upsert adds the
 * block) and serves them from memory, so a busy key costs one database write per block rather
 * than per request. The limit is never exceeded: a request is only let through when it was added
 * to the shared count first. A block is at most 1/16 of what is left of the window (and at most
 * 100), so near the limit blocks shrink to one request and the count is exact; a process can hold
 * back at most that share from the others. The count the headers report is the shared count less
 * this process's unused requests.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  private readonly leases = new LRUCache<string, Lease>({ max: LEASED_KEYS });
  /** One block request in flight per key; concurrent requests of the key wait for it. */
  private readonly taking = new Map<string, Promise<void>>();

  private readonly repo: RateLimitWindowsRepo;
  private readonly prefix: string;
  constructor(repo: RateLimitWindowsRepo, prefix = '') {
    this.repo = repo;
    this.prefix = prefix;
  }

  incr(key: string, cb: Cb, timeWindow: number, max: number): void {
    this.count(this.prefix + key, timeWindow, max).then((r) => cb(null, r), (err: Error) => cb(err));
  }

  private async count(key: string, windowMs: number, max: number): Promise<RateLimitCounter> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.resetAt > now && lease.unused > 0) {
        lease.unused -= 1;
        return { current: lease.counted - lease.unused, ttl: lease.resetAt - now };
      }
      const inFlight = this.taking.get(key);
      if (inFlight) {
        await inFlight;
        continue;
      }
      const known = lease && lease.resetAt > now ? lease.counted : 0;
      const block = Math.max(1, Math.min(MAX_BLOCK, Math.floor((max - known) / BLOCK_SHARE)));
      let result: RateLimitCounter | null = null;
      const take = this.repo.hit(key, windowMs, now, block).then((w) => {
        const before = w.hits - block; // the count before this block
        // Of the block, only what fits under the limit can be used; the first one is this request.
        // Beyond the limit a block is wasted (the window is spent either way) and the request refused.
        const usable = Math.max(0, Math.min(block, max - before));
        if (usable === 0) {
          this.leases.set(key, { resetAt: w.resetAt, counted: w.hits, unused: 0 });
          result = { current: w.hits, ttl: Math.max(0, w.resetAt - now) };
        } else {
          this.leases.set(key, { resetAt: w.resetAt, counted: before + usable, unused: usable - 1 });
          result = { current: before + 1, ttl: Math.max(0, w.resetAt - now) };
        }
      });
      this.taking.set(key, take);
      try {
        await take;
      } finally {
        this.taking.delete(key);
      }
      if (result) return result;
    }
  }

  read(key: string, cb: Cb): void {
    const now = Date.now();
    const k = this.prefix + key;
    this.repo.peek(k, now).then((w) => {
      if (!w) return cb(null, { current: 0, ttl: 0 });
      const lease = this.leases.get(k);
      const unused = lease && lease.resetAt === w.resetAt ? lease.unused : 0;
      cb(null, { current: w.hits - unused, ttl: Math.max(0, w.resetAt - now) });
    }, (err: Error) => cb(err));
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
    // ioredis is loaded only here, when Redis is configured (both are CommonJS: required on demand).
    const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
    const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as RedisStoreClass;
    // No offline queue: while Redis is away a count fails at once (and the request passes uncounted)
    // instead of waiting for the reconnection.
    const redis = new RedisClient(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
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
