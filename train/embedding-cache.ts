/**
 * Embeddings of the corpus, cached outside the repository (node_modules/.cache/mindsim-train/<encoder
 * id>/vectors.bin): embedding is the expensive part of training (~0.45 ms of one core per word), and
 * the same passages and questions come back on every run. Content-addressed: a record is the SHA-1
 * of the text and its float32 vector; new ones are appended. Computed on two threads (piscina).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Piscina } from 'piscina';
import { REPO_ROOT } from '../eval/interviews.ts';

const HASH = 20;

export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string;
  readonly dimensions: number;
  private pool: Piscina<string[], Float32Array> | null = null;
  private readonly threads: number;
  embedded = 0;

  constructor(encoderId: string, dimensions: number, threads = 2, folder: string = path.join(REPO_ROOT, 'node_modules', '.cache', 'mindsim-train')) {
    this.dimensions = dimensions;
    this.threads = threads;
    this.file = path.join(folder, encoderId.replace(/[^\w.@-]/g, '_'), 'vectors.bin');
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    if (!fs.existsSync(this.file)) return;
    const bytes = fs.readFileSync(this.file);
    const record = HASH + 4 * dimensions;
    for (let at = 0; at + record <= bytes.length; at += record) {
      const key = bytes.subarray(at, at + HASH).toString('hex');
      const copy = new Float32Array(dimensions);
      new Uint8Array(copy.buffer).set(bytes.subarray(at + HASH, at + record));
      this.vectors.set(key, copy);
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  static key(text: string): string {
    return crypto.createHash('sha1').update(text).digest('hex');
  }

  get(text: string): Float32Array {
    const v = this.vectors.get(EmbeddingCache.key(text));
    if (!v) throw new Error(`not embedded: ${text.slice(0, 60)}`);
    return v;
  }

  /** Embeds every text not cached yet (in batches over the threads), appending them to the file. */
  async ensure(texts: readonly string[], onProgress: (done: number, total: number) => void = () => {}): Promise<void> {
    const missing = [...new Set(texts)].filter((t) => !this.vectors.has(EmbeddingCache.key(t)));
    if (missing.length === 0) return;
    this.pool ??= new Piscina({ filename: new URL('./embed-worker.ts', import.meta.url).href, minThreads: this.threads, maxThreads: this.threads });
    const pool = this.pool;
    const batch = 64;
    let done = 0;
    const out = fs.openSync(this.file, 'a');
    try {
      const batches: string[][] = [];
      for (let i = 0; i < missing.length; i += batch) batches.push(missing.slice(i, i + batch));
      await Promise.all(
        batches.map(async (texts) => {
          const flat = await pool.run(texts);
          const records: Buffer[] = [];
          texts.forEach((t, i) => {
            const v = flat.slice(i * this.dimensions, (i + 1) * this.dimensions);
            const key = EmbeddingCache.key(t);
            this.vectors.set(key, v);
            records.push(Buffer.from(key, 'hex'), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
          });
          fs.writeSync(out, Buffer.concat(records));
          done += texts.length;
          this.embedded += texts.length;
          onProgress(done, missing.length);
        }),
      );
    } finally {
      fs.closeSync(out);
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
