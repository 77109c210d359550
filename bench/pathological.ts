/**
 * The pathological corpus (testkit/pathological.ts) through the analysis pool, one file at a
 * time on one thread with the service's defaults (heap limit, ANALYSIS_TIMEOUT_MS unless
 * BENCH_TIMEOUT_MS is set): per file, its size, how long generating it took, how long the analysis
 * took and how it ended. `node --conditions=mindsim-source bench/pathological.ts [name-filter]`.
 * Numbers, not pass/fail: test/ingest.pathological.test.ts asserts each file's outcome, never its time.
 */
import { loadConfig } from '../src/config.ts';
import { AnalysisPool } from '../src/jobs/analysis-pool.ts';
import { CORPUS, LIMITS } from '../testkit/pathological.ts';

const config = loadConfig({});
const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? config.analysisTimeoutMs);
const filter = process.argv[2] ?? '';
const pool = new AnalysisPool({ threads: 1, timeoutMs, maxMemoryMb: config.analysisMaxMemoryMb }, () => {});

// Warm the thread (wink-nlp, the sentence encoder and pdf.js load when it starts).
await pool.analyse({ bytes: new Uint8Array(Buffer.from('WEBVTT\n\n00:01.000 --> 00:02.000\nHello there, warm up.\n')), mindName: 'x', speaker: null });

const rows: string[] = ['| file | route | size | generated in | analysis | outcome | expected |', '|---|---|---|---|---|---|---|'];
for (const c of CORPUS) {
  if (!c.name.includes(filter)) continue;
  const g0 = performance.now();
  const bytes = await c.make(LIMITS[c.route]);
  const genMs = performance.now() - g0;
  const t0 = performance.now();
  let outcome: string;
  try {
    const r = await pool.analyse({ bytes: new Uint8Array(bytes), mindName: c.mindName ?? 'Nobody', speaker: null });
    outcome = r.ok ? `completed (${r.memories.length} memories)` : `failed ${r.code}: ${r.message.slice(0, 100)}`;
  } catch (err) {
    outcome = `threw (a retry, then processing_failed): ${String(err).slice(0, 100)}`;
  }
  const ms = performance.now() - t0;
  const expected = c.expect.status === 'completed' ? 'completed' : `failed ${c.expect.code}`;
  const row = `| ${c.name} | ${c.route} | ${(bytes.length / 1048576).toFixed(2)} MiB | ${genMs.toFixed(0)} ms | ${ms.toFixed(0)} ms | ${outcome} | ${expected} |`;
  rows.push(row);
  console.log(row);
}
await pool.close();
console.log(`\n${rows.join('\n')}`);
