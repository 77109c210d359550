import { sectionOf } from '../eval/panels/report.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { client, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { mindSizes, renderMindSizes, type MindSizeRow } from './mind-sizes.ts';
import { renderSnapshotProcessing, snapshotProcessing, type SnapshotProcessing } from './snapshots.ts';
import { postgresAvailable, startPgService, workerThroughput, type PgService, type WorkerThroughput } from './scale.ts';
import { loadOnce, processingMs, rssBytes, startHello, type LoadRow } from './measure.ts';
import { LIMITER_ROW, limiterTargets, renderLimiterCost, type LimiterBench } from './rate-limit.ts';
import { panelBench, renderPanels, type PanelBench } from './panels.ts';
import { parserBench, renderParsers, type ParserBench } from './parsers.ts';

/**
 * `npm run bench`: throughput next to a bare Fastify hello-world started in the same run, snapshot
 * processing time for a two-hour interview in each format, the parsers alone (bench/parsers.ts), and
 * RSS while 50 MB go through a signed URL. Writes BENCHMARKS.md. Numbers, not pass/fail: these machines are shared and noisy.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROOT = path.resolve(import.meta.dirname, '..');
const WORKER_SNAPSHOTS = Number(process.env.BENCH_WORKER_SNAPSHOTS ?? 40);

type Load = LoadRow;

/** Alternates the targets for ROUNDS rounds, so drift on a shared machine hits them alike; reports means. */
async function loads(targets: Array<{ name: string; opts: autocannon.Options }>): Promise<Load[]> {
  const runs = new Map<string, Array<Omit<Load, 'name'>>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      const r = await loadOnce({ connections: CONNECTIONS, duration: DURATION, ...t.opts });
      runs.set(t.name, [...(runs.get(t.name) ?? []), r]);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return targets.map((t) => {
    const rs = runs.get(t.name) ?? [];
    return {
      name: t.name,
      rps: mean(rs.map((r) => r.rps)),
      p50: mean(rs.map((r) => r.p50)),
      p99: mean(rs.map((r) => r.p99)),
      errors: rs.reduce((a, r) => a + r.errors, 0),
      non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
      rounds: rs.map((r) => r.rps),
    };
  });
}

async function timeSnapshot(api: Client, mindId: string, bytes: Buffer | string, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  const r = await api.post(`/minds/${mindId}/snapshots`, form);
  return processingMs(api, mindId, r.body.mindAssessmentId);
}

async function uploadRss(srv: TestServer, api: Client, mindId: string): Promise<{ before: number; peak: number; seconds: number }> {
  const pid = srv.proc.pid ?? 0;
  const { body } = await api.get(`/minds/${mindId}/signed-url?fileName=big.vtt`);
  const total = 50 * 1024 * 1024;
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (sent >= total) return ctrl.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      ctrl.enqueue(new Uint8Array(chunk.subarray(0, n)));
    },
  });
  const before = rssBytes(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 10);
  const t0 = performance.now();
  const res = await fetch(body.signedUrl, { method: 'PUT', body: stream, duplex: 'half', headers: { 'content-type': 'text/vtt' } } as RequestInit);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, rssBytes(pid));
  if (res.status !== 200) throw new Error(`upload answered ${res.status}`);
  return { before, peak, seconds };
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
/** A row's requests/s in each round next to the hello-world's in the same round: the spread the means hide. */
const perRound = (l: Load, hello: Load | undefined) =>
  (l.rounds ?? []).map((rps, i) => `${((rps / (hello?.rounds?.[i] ?? rps)) * 100).toFixed(0)}%`).join(', ');

async function main() {
  // The parsers alone first, in this process, before any other process competes for the cores.
  const parsers = await parserBench();
  const hello = await startHello();
  // The services as `npm start` runs them (the test helper polls the job queue every 50 ms).
  const SERVICE_ENV = { LOG_LEVEL: 'warn', WORKER_POLL_MS: '250' };
  const srv = await startServer(SERVICE_ENV);
  const pg: PgService | null = postgresAvailable ? await startPgService(SERVICE_ENV) : null;
  let limiter: LimiterBench | null = null;
  let uncached: TestServer | null = null;
  try {
    const api = client(srv.api, srv.apiKey);
    // First, on a service that has processed nothing yet: the first run of each format is cold.
    const snapshots = await snapshotProcessing(api);
    const { mindId, vtt } = snapshots;
    const status = (await api.get(`/minds/${mindId}/snapshots`)).body.snapshots[0];
    const statusPath = `/minds/${mindId}/snapshots/${status.id}/status`;
    const auth = { authorization: `Bearer ${srv.apiKey}` };
    const simulateBody = (id: string) => JSON.stringify({ mindId: id, scenario: { message: 'Would you hire someone without a degree?' } });
    const pgTargets: Array<{ name: string; opts: autocannon.Options }> = [];
    let pgStatusPath: string | null = null;
    if (pg) {
      const pgMind = (await pg.api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
      await timeSnapshot(pg.api, pgMind, vtt, 'i.vtt');
      const pgStatus = (await pg.api.get(`/minds/${pgMind}/snapshots`)).body.snapshots[0];
      pgStatusPath = `/minds/${pgMind}/snapshots/${pgStatus.id}/status`;
      const pgAuth = { authorization: `Bearer ${pg.srv.apiKey}` };
      pgTargets.push(
        { name: 'GET …/status on PostgreSQL', opts: { url: `${pg.srv.api}${pgStatusPath}`, headers: pgAuth } },
        {
          name: 'POST /simulate on PostgreSQL',
          opts: { url: `${pg.srv.api}/simulate`, method: 'POST', headers: { ...pgAuth, 'content-type': 'application/json' }, body: simulateBody(pgMind) },
        },
      );
    }

    // The same route on an API-only process over the same data that reads the database every time.
    uncached = await startServer({ ...SERVICE_ENV, DATA_DIR: srv.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: '0' });
    // Phase 1: the routes next to the hello-world, with only the processes they need running.
    const routes = await loads([
      { name: 'hello-world (bare Fastify)', opts: { url: hello.url } },
      { name: 'GET …/snapshots/{id}/status', opts: { url: `${srv.api}${statusPath}`, headers: auth } },
      {
        name: 'GET …/status, read from the database every time (STATUS_CACHE_MS=0)',
        opts: { url: `${uncached.api}${statusPath}`, headers: auth },
      },
      {
        name: 'POST /simulate',
        opts: {
          url: `${srv.api}/simulate`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: simulateBody(mindId),
        },
      },
      ...pgTargets,
    ]);
    await uncached.stop();
    // Phase 2: the limiter settings against each other, on API-only processes started for it.
    limiter = await limiterTargets(
      { srv, statusPath },
      pg && pgStatusPath ? { srv: pg.srv, statusPath: pgStatusPath } : undefined,
    );
    const results = [...routes, ...(await loads(limiter.targets))];
    await limiter.stop();
    const rss = await uploadRss(srv, api, mindId);
    const sizes = await mindSizes(srv);
    await pg?.close();
    const workers = pg ? [await workerThroughput(1, WORKER_SNAPSHOTS), await workerThroughput(2, WORKER_SNAPSHOTS)] : [];
    // Its own services, after the others have stopped.
    await srv.stop();
    const panels = await panelBench({ postgres: pg !== null });
    writeReport({ loads: results, snapshots, parsers, rss, sizes, workers, panels });
  } catch (err) {
    // The service's own output says why it stopped answering, if it did.
    const p = srv.proc;
    process.stderr.write(`service pid ${p.pid} exit ${p.exitCode} signal ${p.signalCode}; its last output:\n${srv.output().slice(-4000)}\n`);
    throw err;
  } finally {
    hello.stop();
    await limiter?.stop();
    await uncached?.stop();
    await srv.stop();
    await pg?.close();
  }
}

function writeReport(r: {
  loads: Load[];
  snapshots: SnapshotProcessing;
  parsers: ParserBench;
  rss: { before: number; peak: number; seconds: number };
  sizes: MindSizeRow[];
  workers: WorkerThroughput[];
  panels: PanelBench;
}) {
  const base = r.loads[0]?.rps ?? 1;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmarks',
    '',
    `Run: ${new Date().toISOString()} on ${os.cpus().length} × ${cpu}, ${mb(os.totalmem())} MiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    `Produced by \`npm run bench\` (bench/run.ts). Service and baseline are separate processes on this machine; autocannon ${CONNECTIONS} connections × ${DURATION} s after a 2 s warm-up, in a process of its own; the targets alternate for ${ROUNDS} rounds and the table shows the means. The service runs with LOG_LEVEL=warn and its other defaults; the baseline logs nothing. Two phases: the routes next to the hello-world first, with only the processes they need running; then the rate-limiter settings against each other on API-only processes started for that phase.`,
    '',
    '## Throughput next to a bare Fastify hello-world (same run)',
    '',
    '| route | req/s | mean p50 ms | mean p99 ms | errors | non-2xx | vs hello-world | each round vs its hello-world |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...r.loads
      .filter((l) => !l.name.startsWith(LIMITER_ROW))
      .map(
        (l) =>
          `| ${l.name} | ${Math.round(l.rps)} | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.errors} | ${l.non2xx} | ${((l.rps / base) * 100).toFixed(0)}% | ${perRound(l, r.loads[0])} |`,
      ),
    '',
    ...(r.workers.length ? ['Rows "on PostgreSQL": the same service with DATABASE_URL set, PostgreSQL on this machine over loopback TCP.', ''] : []),
    'Target: status at least 50% of the hello-world\'s requests/s. The status rows read a completed snapshot: its status is final, so after the first read it is answered from memory for STATUS_CACHE_MS (default 1 s; a pending or processing status is always read). The row with STATUS_CACHE_MS=0 is the same route reading the database on every request.',
    '',
    ...renderLimiterCost(
      r.loads,
      'The status route above on API-only processes over the same data folder, started for this phase and alternating among themselves: the limiter off (RATE_LIMIT_ENABLED=false), counting in memory, in the SQLite database (requests taken from the shared count in blocks: one upsert per block) and in Redis (when redis-server is installed), limits far above the load so nothing is refused. The status rows of the table above count in memory (SQLite service) and in the database (PostgreSQL service): the defaults without REDIS_URL. Limits far above the load make blocks of 100 requests for the database stores; with limits in force one key could never send this many (500/min at most), and real traffic is many keys: the rows with 20 keys spread the same load over 20 keys.',
    ),
    ...renderSnapshotProcessing(r.snapshots),
    ...renderParsers(r.parsers),
    '## Memory: 50 MB through a signed URL',
    '',
    '| RSS before | peak RSS during upload | growth | upload time |',
    '|---:|---:|---:|---:|',
    `| ${mb(r.rss.before)} MiB | ${mb(r.rss.peak)} MiB | ${mb(r.rss.peak - r.rss.before)} MiB | ${r.rss.seconds.toFixed(2)} s |`,
    '',
    'Target: RSS growth under 64 MB (the body is streamed to disk, never buffered).',
    '',
    ...renderMindSizes(r.sizes),
    ...(r.workers.length
      ? [
          '## Snapshots per minute on PostgreSQL: one and two worker processes',
          '',
          `${r.workers[0]?.snapshots} one-hour interviews (VTT, direct files) sent through an API-only process on PostgreSQL to idle worker processes; timed from the first request until all are completed. WORKER_CONCURRENCY=1 per worker; the API, the workers, PostgreSQL and the client share this machine's cores.`,
          '',
          '| workers | snapshots | seconds | snapshots per minute |',
          '|---:|---:|---:|---:|',
          ...r.workers.map((w) => `| ${w.workers} | ${w.snapshots} | ${w.seconds.toFixed(1)} | ${Math.round(w.perMinute)} |`),
          '',
        ]
      : ['PostgreSQL rows and worker throughput left out: TEST_DATABASE_URL was not set.', '']),
    ...renderPanels(r.panels),
  ];
  // Sections other benchmarks write (bench:encoder, bench:minds, bench:parsers, the hot-path runs) are kept, after these.
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const written = new Set(lines.filter((l) => l.startsWith('## ')));
  const kept = [...before.matchAll(/^## .*$/gm)].map((m) => m[0]).filter((h) => !written.has(h)).map((h) => sectionOf(before, h).trimEnd());
  fs.writeFileSync(file, [...lines, ...kept.flatMap((k) => [k, ''])].join('\n'));
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
