import crypto from 'node:crypto';

/** Time, ids and randomness, provided by the composition root so tests can control them. */
export interface Runtime {
  now(): Date;
  newId(): string;
  randomBytes(n: number): Buffer;
}

export const systemRuntime: Runtime = {
  now: () => new Date(),
  newId: () => crypto.randomUUID(),
  randomBytes: (n) => crypto.randomBytes(n),
};

export const iso = (d: Date): string => d.toISOString();

/** The runtime's clock in milliseconds, as caches with a time to live read it (lru-cache's `perf`). */
export const cacheClock = (rt: Runtime): { now(): number } => ({ now: () => rt.now().getTime() });
