/**
 * Simulation latency and memory by mind size: minds of 6,500, 100,000 and 1,000,000 words
 * (longInterview as Teams VTT; the large ones uploaded through a signed URL), simulate p50/p99
 * over sequential requests (one client, rotating short and long context-first scenarios), the
 * first request (which builds the retrieval indexes) apart, the API process's RSS growth for the
 * mind (memories + indexes), and the first simulate after a restart of the service (cold: memories
 * read from the database, the BM25 index built, the passage vectors loaded).
 * Used by bench/run.ts; `node --import tsx bench/mind-sizes.ts` runs it alone and prints the section.
 */
import { client, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { longInterview, teamsVtt, type Turn } from '../testkit/fixtures.ts';
import { processingMs, rssBytes } from './measure.ts';

/** BENCH_MIND_SIZES=6500,100000 measures fewer (a 1,000,000-word mind takes ~8 min of CPU to embed). */
export const MIND_SIZES = (process.env.BENCH_MIND_SIZES ?? '6500,100000,1000000').split(',').map(Number);
/** One file holds at most ~150,000 words and punctuation marks (src/ingest/limits.ts): larger minds are sent in parts. */
const PART_WORDS = 110_000;
const REQUESTS = Number(process.env.BENCH_SIM_REQUESTS ?? 300);
/** What users send most: one short question. */
const SHORT_SCENARIOS = [
  'Would you hire someone without a degree?',
  'How do you feel about remote work?',
  'What do you do on Sunday mornings?',
  'Your manager asks you to ship on Friday. What do you do?',
  'Do you like long flights?',
  'What is your favourite football team?',
  'How do you handle a budget review?',
  'Tell me about your old manager.',
];
/** Context first, the ask last: more words to expand and embed. */
const LONG_SCENARIOS = [
  "We're a 12-person agency and a client wants us on call at weekends. They pay well, but two of the team already said they're tired. Would you take the deal?",
  'Your team has a release on Friday and the test suite is flaky. The product manager says customers are waiting and wants to skip the review. What do you do?',
  "A friend from university is starting a small company and asks you to join as the first engineer. The salary is half what you earn now, and the contract is for one year. Would you leave your job?",
  'You have been asked to mentor two new colleagues while leading a project with a tight deadline. Your evenings are already taken by meetings. How would you organise the next month?',
];
const SCENARIOS = [...SHORT_SCENARIOS, ...LONG_SCENARIOS];
const LONG = new Set(LONG_SCENARIOS);
/** The targets (issue 22, with the sentence encoder on), on the p50 over the whole rotation. */
const P50_TARGETS: ReadonlyArray<{ words: number; ms: number }> = [
  { words: 6_500, ms: 50 },
  { words: 1_000_000, ms: 150 },
];

export interface MindSizeRow {
  words: number;
  fileBytes: number;
  processingMs: number;
  firstMs: number;
  p50: number;
  p99: number;
  /** p50 of the long, context-first scenarios alone. */
  p50Long: number;
  rssGrowthMb: number;
  /** First simulate on this mind after the service process restarted. */
  coldMs: number;
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

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/**
 * Makes sure the API process and its analysis thread have loaded wink-nlp and the sentence encoder before
 * the first size is measured (bench/run.ts has simulated before; a lone run has not), so the
 * first size's processing time and RSS growth are the mind's alone.
 */
async function warmUp(api: Client): Promise<void> {
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  await snapshotThroughSignedUrl(api, mindId, teamsVtt(longInterview(1_000)));
  await timed(api, mindId, SCENARIOS[0] ?? '');
}

export async function mindSizes(srv: TestServer): Promise<MindSizeRow[]> {
  const api = client(srv.api, srv.apiKey);
  const rows: MindSizeRow[] = [];
  await warmUp(api);
  for (const words of MIND_SIZES) {
    const files = inParts(longInterview(words)).map(teamsVtt);
    const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
    let processingMs = 0;
    for (const vtt of files) processingMs += await snapshotThroughSignedUrl(api, mindId, vtt);
    const pid = srv.proc.pid ?? 0; // a new process after each restart
    const before = rssBytes(pid) / 1024 / 1024;
    const firstMs = await timed(api, mindId, SCENARIOS[0] ?? '');
    const all: number[] = [];
    const long: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const message = SCENARIOS[i % SCENARIOS.length] ?? '';
      const ms = await timed(api, mindId, message);
      all.push(ms);
      if (LONG.has(message)) long.push(ms);
    }
    const after = rssBytes(pid) / 1024 / 1024;
    all.sort((a, b) => a - b);
    long.sort((a, b) => a - b);
    // Cold: a new process over the same data folder; the first simulate reads the memories from the
    // database, builds the BM25 index and loads the passage vectors.
    await srv.stop();
    await srv.start();
    const coldMs = await timed(api, mindId, LONG_SCENARIOS[0] ?? '');
    const row: MindSizeRow = {
      words,
      fileBytes: files.reduce((sum, vtt) => sum + Buffer.byteLength(vtt), 0),
      processingMs,
      firstMs,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      p50Long: percentile(long, 0.5),
      rssGrowthMb: after - before,
      coldMs,
    };
    rows.push(row);
    process.stderr.write(`${words} words: p50 ${row.p50.toFixed(1)} ms, cold ${row.coldMs.toFixed(0)} ms\n`);
  }
  return rows;
}

/** Consecutive turns in parts of at most PART_WORDS words. */
function inParts(turns: readonly Turn[]): Turn[][] {
  const parts: Turn[][] = [[]];
  let words = 0;
  for (const turn of turns) {
    const n = turn.text.split(/\s+/).length;
    if (words + n > PART_WORDS) {
      parts.push([]);
      words = 0;
    }
    parts.at(-1)?.push(turn);
    words += n;
  }
  return parts;
}

function targetsLine(rows: readonly MindSizeRow[]): string {
  const parts = P50_TARGETS.map(({ words, ms }) => {
    const row = rows.find((r) => r.words === words);
    const verdict = !row ? 'not measured' : row.p50 <= ms ? `met: ${row.p50.toFixed(1)} ms` : `not met: ${row.p50.toFixed(1)} ms`;
    return `≤ ${ms} ms at ${words.toLocaleString('en')} words (${verdict})`;
  });
  return `Targets: p50 ${parts.join(' and ')}.`;
}

export function renderMindSizes(rows: readonly MindSizeRow[]): string[] {
  return [
    '## Simulation by mind size (offline engine)',
    '',
    `Minds built from one generated interview each (Teams VTT through a signed URL, in files of at most ${PART_WORDS.toLocaleString('en')} words: one`,
    `file holds at most ~150,000 words and punctuation marks; "snapshot processing" is the sum over the files). ${REQUESTS} sequential POST /simulate`,
    `requests from one client after the first, over ${SCENARIOS.length} rotating scenarios: ${SHORT_SCENARIOS.length} short questions (one off-topic) and`,
    `${LONG_SCENARIOS.length} longer context-first ones (two or three sentences, the ask last, as users write them); "p50 long" is the`,
    'p50 of those alone. Latency measured at the client, HTTP included, the learned search (sentence encoder + BM25) on.',
    'The first simulate builds the BM25 index and loads the passage vectors for the mind in a process that has already loaded',
    'the sentence encoder (then cached per set of snapshots). "Cold after restart": after the requests the service process is',
    'restarted over the same data folder and the first simulate on the mind (a long scenario) is timed: it reads the',
    'memories from the database, builds the BM25 index and loads the passage vectors. Memory per',
    "mind (RSS growth) is the API process's resident memory after the requests minus before the first (memories,",
    'indexes, caches); the analysis thread lives in the same process, so its heap after processing the snapshot adds noise.',
    '',
    '| mind | VTT size (all files) | snapshot processing | first simulate | p50 | p99 | p50 long | memory per mind (RSS growth) | cold after restart |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.words.toLocaleString('en')} words | ${(r.fileBytes / 1024 / 1024).toFixed(1)} MiB | ${(r.processingMs / 1000).toFixed(1)} s | ` +
        `${r.firstMs.toFixed(0)} ms | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.p50Long.toFixed(1)} ms | ${r.rssGrowthMb.toFixed(0)} MiB | ` +
        `${r.coldMs.toFixed(0)} ms |`,
    ),
    '',
    targetsLine(rows),
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
