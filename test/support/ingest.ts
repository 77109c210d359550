import { IngestError, type Utterance } from '../../src/ingest/transcript.ts';

/** Shared helpers of the parser tests. */
export const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Fastest of n runs, in ms (timings in a busy test run are noisy). */
export async function bestOf(n: number, run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export const said = (us: Utterance[]) => us.map((u) => [u.speaker, u.text]);

export const isIngestError = (code: IngestError['code']) => (err: unknown) => err instanceof IngestError && err.code === code;
