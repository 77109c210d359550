/**
 * The one way a test waits for something the service does on its own (a snapshot processed, a
 * panel answered, a process listening): ask again until the condition holds. The verdict never
 * rests on how long that takes; `timeoutMs` only ends a test that would otherwise hang, and it is
 * generous (a loaded 2-core machine is slow, not wrong).
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** What is awaited, for the failure message ("snapshot abc completed"); a function is asked at the failure. */
  what: string | (() => string);
  /** When to give up (default 30 s). */
  timeoutMs?: number;
  /** Between two looks, always (by default 20 ms, doubling up to 200 ms). */
  intervalMs?: number;
}

/**
 * Resolves with the first truthy value `condition` returns (it may be async). An error `condition`
 * throws ends the wait at once (a process that exited, a snapshot that failed); after `timeoutMs`
 * it throws, naming `what` and the last value seen.
 */
export async function waitUntil<T>(condition: () => T | Promise<T>, opts: WaitOptions): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let interval = opts.intervalMs ?? 20;
  let last: unknown;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    last = value;
    if (Date.now() > deadline) {
      const what = typeof opts.what === 'function' ? opts.what() : opts.what;
      throw new Error(`waited ${opts.timeoutMs ?? 30_000} ms for ${what}; last seen: ${JSON.stringify(last)}`);
    }
    await sleep(interval);
    if (opts.intervalMs === undefined) interval = Math.min(interval * 2, 200);
  }
}

/** A gate the test opens: what awaits `opened` goes on only once `open()` is called (a closed gate holds work, whatever the machine's speed). */
export interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(open = false): Gate {
  let resolve = () => {};
  const opened = new Promise<void>((r) => (resolve = r));
  if (open) resolve();
  return { opened, open: () => resolve() };
}
