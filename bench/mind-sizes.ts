/**
 * Simulation latency and memory by mind size: minds of 6,500, 100,000 and 1,000,000 words
 * (longInterview as Teams VTT; the large ones uploaded through a signed URL), simulate p50/p99
 * over sequential requests (one client, rotating scenarios), the first request (which builds the
 * retrieval index) apart, and the API process's RSS growth for the mind (memories + index).
 * Used by bench/run.ts; `node --import tsx bench/mind-sizes.ts` runs it alone and prints the section.
 */
import { client, startServer, type Client, type TestServer } from '../test/support/server.ts';
import { longInterview, teamsVtt } from '../test/support/fixtures.ts';
import { processingMs, rssBytes } from './measure.ts';

export const MIND_SIZES = [6_500, 100_000, 1_000_000];
const REQUESTS = Number(process.env.BENCH_SIM_REQUESTS ?? 300);
const SCENARIOS = [
  'Would you hire someone without a degree?',
  'How do you feel about remote work?',
  'What do you do on Sunday mornings?',
  'Your manager asks you to ship on Friday. What do you do?',
  'Do you like long flights?',
  'What is your favourite football team?',
  'How do you handle a budget review?',
  'Tell me about your old manager.',
];

export interface MindSizeRow {
  words: number;
  fileBytes: number;
  processingMs: number;
  firstMs: number;
  p50: number;
  p99: number;
  rssGrowthMb: number;
}

async function snapshotThroughSignedUrl(api: Client, mindId: string, vtt: string): Promise<number> {
  const { body } = await api.get(`/minds/${mindId}/signed-url?fileName=interview.vtt`);
  const put = await fetch(body.signedUrl, { method: 'PUT', body: vtt, headers: { 'content-type': 'text/vtt' } });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  const form = new FormData();
  form.append('artifactId', body.artifactId);
  const r = await api.post(`/minds/${mindId}/snapshots`, form);
  return processingMs(api, mindId, r.body.mindAssessmentId, 600_000);
}

async function timed(api: Client, mindId: string, message: string): Promise<number> {
  const t0 = performance.now();
  const r = await api.post('/simulate', { mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message } });
  if (r.status !== 200) throw new Error(`simulate answered ${r.status}`);
  return performance.now() - t0;
}

export async function mindSizes(srv: TestServer): Promise<MindSizeRow[]> {
  const api = client(srv.api, srv.apiKey);
  const pid = srv.proc.pid ?? 0;
  const rows: MindSizeRow[] = [];
  for (const words of MIND_SIZES) {
    const vtt = teamsVtt(longInterview(words));
    const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
    const processingMs = await snapshotThroughSignedUrl(api, mindId, vtt);
    global.gc?.();
    const before = rssBytes(pid) / 1024 / 1024;
    const firstMs = await timed(api, mindId, SCENARIOS[0] ?? '');
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) times.push(await timed(api, mindId, SCENARIOS[i % SCENARIOS.length] ?? ''));
    const after = rssBytes(pid) / 1024 / 1024;
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))] ?? 0;
    rows.push({ words, fileBytes: Buffer.byteLength(vtt), processingMs, firstMs, p50: pct(0.5), p99: pct(0.99), rssGrowthMb: after - before });
    process.stderr.write(`${words} words: p50 ${pct(0.5).toFixed(1)} ms\n`);
  }
  return rows;
}

export function renderMindSizes(rows: readonly MindSizeRow[]): string[] {
  return [
    '## Simulation by mind size (offline engine)',
    '',
    `Minds built from one generated interview each (Teams VTT through a signed URL). ${REQUESTS} sequential POST /simulate`,
    'requests from one client after the first, over rotating scenarios (one off-topic); latency measured at the client,',
    'HTTP included. The first request builds the retrieval index for the mind (then cached per set of snapshots);',
    'RSS growth is the API process\'s resident memory after the requests minus before the first (memories, index, caches).',
    '',
    '| mind | VTT size | snapshot processing | first simulate | p50 | p99 | RSS growth |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.words.toLocaleString('en')} words | ${(r.fileBytes / 1024 / 1024).toFixed(1)} MiB | ${(r.processingMs / 1000).toFixed(1)} s | ` +
        `${r.firstMs.toFixed(0)} ms | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.rssGrowthMb.toFixed(0)} MiB |`,
    ),
    '',
    'Targets: p50 ≤ 10 ms at 6,500 words and ≤ 50 ms at 1,000,000 words.',
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const srv = await startServer({ LOG_LEVEL: 'warn', ANALYSIS_TIMEOUT_MS: '600000' });
  try {
    process.stdout.write(`${renderMindSizes(await mindSizes(srv)).join('\n')}\n`);
  } finally {
    await srv.stop();
  }
}
