import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';
import { rankingParams } from '../src/memory/params/params.ts';
import { typedParams } from '../src/memory/params/typed.ts';

/**
 * `npm run bench:model-memory`: what the loaded model costs in memory, step by step, in a process of
 * its own (run it alone: this process loads nothing else). Each step's growth of the resident set
 * (RSS), of the V8 heap and of memory outside it (ArrayBuffers, the WebAssembly memory of TF.js's
 * backend), after a full garbage collection when node runs with --expose-gc.
 *   1. the sentence encoder (Universal Sentence Encoder lite: its graph, weights and vocabulary);
 *   2. the encoder's first batch (TF.js grows the WebAssembly memory to its working size);
 *   3. the ranking parameters (first stage, confidence and the second stage's weights: params/*.json);
 *   4. the typed-answer parameters.
 */
interface Usage {
  rss: number;
  heap: number;
  outside: number;
}

export interface ModelMemoryRow {
  step: string;
  rss: number;
  heap: number;
  outside: number;
}

const MiB = 1024 * 1024;

function usage(): Usage {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, outside: m.external + m.arrayBuffers };
}

export async function modelMemory(): Promise<ModelMemoryRow[]> {
  const rows: ModelMemoryRow[] = [];
  let before = usage();
  const step = (name: string): void => {
    const after = usage();
    rows.push({ step: name, rss: after.rss - before.rss, heap: after.heap - before.heap, outside: after.outside - before.outside });
    before = after;
  };
  const encoder = await UseLiteEncoder.load();
  step('sentence encoder loaded');
  await encoder.embed(Array.from({ length: 32 }, (_, i) => `A sentence of about ten words, number ${i}, to warm the encoder up.`));
  step("encoder's first batch of 32");
  const ranking = rankingParams();
  step('ranking parameters (first stage, confidence, second stage)');
  const typed = typedParams();
  step('typed-answer parameters');
  if (!ranking || !typed) throw new Error('parameters did not load');
  return rows;
}

export function renderModelMemory(rows: readonly ModelMemoryRow[]): string {
  const f = (n: number): string => (n / MiB).toFixed(1);
  const total = rows.reduce((t, r) => ({ rss: t.rss + r.rss, heap: t.heap + r.heap, outside: t.outside + r.outside }), { rss: 0, heap: 0, outside: 0 });
  return [
    '| step | RSS growth (MiB) | V8 heap (MiB) | outside the heap (MiB) |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.step} | ${f(r.rss)} | ${f(r.heap)} | ${f(r.outside)} |`),
    `| **the loaded model** | **${f(total.rss)}** | **${f(total.heap)}** | **${f(total.outside)}** |`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await modelMemory();
  console.log(`${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, gc ${'gc' in globalThis ? 'forced' : 'not exposed'}\n`);
  console.log(renderModelMemory(rows));
}
