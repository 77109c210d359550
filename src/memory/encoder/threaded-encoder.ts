import { Piscina } from 'piscina';
import type { SentenceEncoder } from './sentence-encoder.ts';
import { USE_LITE } from './use-lite.ts';

/**
 * The sentence encoder in a pool of worker threads (QUERY_ENCODER_THREADS): a simulate's scenario
 * is embedded (~14 ms of CPU) off the thread that serves HTTP, and two scenarios at once use two
 * cores. The same model and weights as UseLiteEncoder, so the same vectors.
 */
export class ThreadedEncoder implements SentenceEncoder {
  readonly id = USE_LITE.id;
  readonly dimensions = USE_LITE.dimensions;
  private readonly pool: Piscina<{ texts: string[] }, Float32Array[]>;

  private constructor(pool: Piscina<{ texts: string[] }, Float32Array[]>) {
    this.pool = pool;
  }

  /** Starts `threads` threads and waits until one has loaded the model. */
  static async start(threads: number): Promise<ThreadedEncoder> {
    const pool = new Piscina<{ texts: string[] }, Float32Array[]>({
      filename: new URL('./encoder-thread.ts', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    });
    const encoder = new ThreadedEncoder(pool);
    await encoder.embed(['ready']);
    return encoder;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.pool.run({ texts: [...texts] });
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
