/**
 * The service's clock in a test: real time plus whatever the test has moved it forward by. The
 * service reads every expiry (sessions, signed upload URLs, API-key and status caches, retention)
 * from its injected Runtime (src/kernel/runtime.ts), so a test that checks an expiry moves this
 * clock past it instead of sleeping it out.
 */
import { systemRuntime, type Runtime } from '../src/kernel/runtime.ts';

export interface TestClock extends Runtime {
  /** Moves the service's time forward by `ms` (back, with a negative `ms`: what it signs then was signed in the past). */
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    newId: systemRuntime.newId,
    randomBytes: systemRuntime.randomBytes,
    advance: (ms) => void (offset += ms),
  };
}
