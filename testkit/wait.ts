/**
 * The one way a test waits for something the service does on its own (a snapshot processed, a
 * panel answered, a process listening): ask again until the condition holds. The verdict never
 * rests on how long that takes; `timeoutMs` only ends a test that would otherwise hang, and it is
 * generous (a loaded 2-core machine is slow, not wrong).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** What is awaited, for the failure message ("snapshot abc completed"). */
  what: string;
  /** When to give up (default 30 s). */
  timeoutMs?: number;
  /** Between two looks (default 20 ms, doubling up to 200 ms). */
  intervalMs?: number;
}

/**
 * Resolves with the first truthy value `condition` returns (it may be async). Throws after
 * `timeoutMs` with `what` and the last value seen (or the last error `condition` threw).
 */
export async function waitUntil<T>(condition: () => T | Promise<T>, opts: WaitOptions): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let interval = opts.intervalMs ?? 20;
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`waited ${opts.timeoutMs ?? 30_000} ms for ${opts.what}; last seen: ${seen}`);
    }
    await sleep(interval);
    interval = Math.min(interval * 2, Math.max(200, opts.intervalMs ?? 0));
  }
}
