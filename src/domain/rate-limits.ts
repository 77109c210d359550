import type { Tier } from './accounts.ts';

/** A key's counter as the rate limiter sees it: requests in the running window and ms until it ends. */
export interface RateLimitCounter {
  current: number;
  ttl: number;
}

type Callback = (err: Error | null, res?: RateLimitCounter) => void;

/**
 * Where the counters live: the store contract of @fastify/rate-limit (its LocalStore and
 * RedisStore, and our database store, all fulfil it). `read` peeks without counting.
 */
export interface RateLimitStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}

export interface RateLimitWindow {
  limit: number;
  /** Requests counted in the running window (rejected ones included). */
  used: number;
  remaining: number;
  /** When the running window ends (ISO 8601); null when no window is running. */
  resetAt: string | null;
}

export interface RateLimitPolicy {
  enabled: boolean;
  perMinute: Record<Tier, number>;
}

/** Per-API-key request limits by tier, over fixed one-minute windows kept in a (possibly shared) store. */
export class RateLimits {
  readonly windowMs = 60_000;

  private readonly policy: RateLimitPolicy;
  /** The counters; the HTTP limiter counts into the same store. */
  readonly store: RateLimitStore;
  /** Which store, for logs and the dashboard: memory, database or redis. */
  readonly storeName: string;
  private readonly onClose: () => Promise<void>;
  constructor(
    policy: RateLimitPolicy,
    store: RateLimitStore,
    storeName: string,
    onClose: () => Promise<void> = async () => {},
  ) {
    this.policy = policy;
    this.store = store;
    this.storeName = storeName;
    this.onClose = onClose;
  }

  get enabled(): boolean {
    return this.policy.enabled;
  }

  /** Requests per minute per API key of an account on this tier. */
  limitFor(tier: Tier): number {
    return this.policy.perMinute[tier];
  }

  /** The running window of one API key, without counting a request. */
  async window(apiKeyId: string, tier: Tier): Promise<RateLimitWindow> {
    const limit = this.limitFor(tier);
    if (!this.policy.enabled) return { limit, used: 0, remaining: limit, resetAt: null };
    const { current, ttl } = await new Promise<RateLimitCounter>((resolve, reject) =>
      this.store.read(apiKeyId, (err, res) => (err || !res ? reject(err ?? new Error('no counter')) : resolve(res)), this.windowMs, limit),
    );
    return {
      limit,
      used: current,
      remaining: Math.max(0, limit - current),
      resetAt: current > 0 && ttl > 0 ? new Date(Date.now() + ttl).toISOString() : null,
    };
  }

  /** Releases the store's connection (Redis). */
  close(): Promise<void> {
    return this.onClose();
  }
}
