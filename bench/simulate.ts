import { pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { loadOnce, type LoadRow } from './measure.ts';
import { postgresAvailable, startPgService, type PgService } from './scale.ts';

/**
 * `npm run bench:simulate`: POST /simulate on one mind (a two-hour interview, ~6,500 words, the
 * sentence encoder on, as every simulate runs) at 1, 10 and 50 connections, with the first turn
 * stored after the answer (SIMULATION_FLUSH_MS, the default on SQLite) and before it
 * (SIMULATION_FLUSH_MS=0, the path as it was), each a process of its own over the same data; on
 * PostgreSQL too when TEST_DATABASE_URL is set (there deferral is opted into with
 * SIMULATION_FLUSH_MS=100). The targets alternate for BENCH_ROUNDS rounds of BENCH_SECONDS each
 * (after autocannon's 2 s warm-up), so drift on a shared machine hits them alike; prints the means
 * as a Markdown table (BENCHMARKS.md is written by `npm run bench`, not by this).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number);
const SERVICE_ENV = { LOG_LEVEL: 'warn', WORKER_POLL_MS: '250' };
const SCENARIO = 'Would you hire someone without a degree?';

interface Target {
  name: string;
  srv: TestServer;
  /** The key of the process that made the data (a process started on existing data prints none). */
  apiKey: string;
  mindId: string;
}

/** A mind whose only snapshot is the two-hour interview, completed. */
async function interviewMind(srv: TestServer): Promise<string> {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const form = new FormData();
  form.append('file', new Blob([teamsVtt(longInterview(6500))]), 'interview.vtt');
  const snap = await api.post(`/minds/${mindId}/snapshots`, form);
  const done = await waitForSnapshot(api, mindId, snap.body.mindAssessmentId, 120_000);
  if (done.status !== 'completed') throw new Error(`the interview's snapshot ended ${done.status}`);
  return mindId;
}

const simulate = (t: Target, connections: number, uniqueScenarios = false): autocannon.Options & { uniqueScenarios: boolean } => ({
  uniqueScenarios,
  url: `${t.srv.api}/simulate`,
  method: 'POST',
  headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify({ mindId: t.mindId, scenario: { message: SCENARIO } }),
  connections,
  duration: SECONDS,
});

async function main() {
  const servers: TestServer[] = [];
  let pg: PgService | null = null;
  try {
    // The deferring process first: it owns the data folder's journal; the synchronous one shares the data, API only.
    const deferred = await startServer(SERVICE_ENV);
    servers.push(deferred);
    const mindId = await interviewMind(deferred);
    const synchronous = await startServer({ ...SERVICE_ENV, DATA_DIR: deferred.dataDir, RUN_WORKER: 'false', SIMULATION_FLUSH_MS: '0' });
    servers.push(synchronous);
    // Scenarios embedded in two threads of their own (QUERY_ENCODER_THREADS=2), API only; the first
    // process holds the data folder's journal, so this one stores each turn before its answer.
    const threaded = await startServer({ ...SERVICE_ENV, DATA_DIR: deferred.dataDir, RUN_WORKER: 'false', QUERY_ENCODER_THREADS: '2' });
    servers.push(threaded);
    const uniques: Target[] = [
      { name: 'SQLite, stored after the answer (SIMULATION_FLUSH_MS default, 100), every scenario new', srv: deferred, apiKey: deferred.apiKey, mindId },
      { name: 'SQLite, stored before the answer, scenarios embedded in 2 threads (QUERY_ENCODER_THREADS=2), every scenario new', srv: threaded, apiKey: deferred.apiKey, mindId },
    ];
    const targets: Target[] = [
      { name: 'SQLite, stored after the answer (SIMULATION_FLUSH_MS default, 100)', srv: deferred, apiKey: deferred.apiKey, mindId },
      { name: 'SQLite, stored before the answer (SIMULATION_FLUSH_MS=0)', srv: synchronous, apiKey: deferred.apiKey, mindId },
    ];
    if (postgresAvailable) {
      pg = await startPgService(SERVICE_ENV);
      const pgMind = await interviewMind(pg.srv);
      const pgDeferred = await startServer({ ...SERVICE_ENV, DATABASE_URL: pg.srv.env.DATABASE_URL ?? '', RUN_WORKER: 'false', SIMULATION_FLUSH_MS: '100' });
      servers.push(pgDeferred);
      targets.push(
        { name: 'PostgreSQL, stored after the answer (SIMULATION_FLUSH_MS=100)', srv: pgDeferred, apiKey: pg.srv.apiKey, mindId: pgMind },
        { name: 'PostgreSQL, stored before the answer (default, 0)', srv: pg.srv, apiKey: pg.srv.apiKey, mindId: pgMind },
      );
    }
    const runs = new Map<string, Array<Omit<LoadRow, 'name'>>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of CONNECTIONS) {
        for (const t of targets) {
          const key = `${t.name}|${connections}`;
          runs.set(key, [...(runs.get(key) ?? []), await loadOnce(simulate(t, connections))]);
        }
        // Every request a new scenario: its ask embedded by the encoder (~15 ms of a core), nothing cached.
        for (const unique of uniques) {
          const key = `${unique.name}|${connections}`;
          runs.set(key, [...(runs.get(key) ?? []), await loadOnce(simulate(unique, connections, true))]);
        }
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const lines = [
      `POST /simulate, one mind (a ~6,500-word interview), the same scenario (its embedding computed once, then taken from the Searcher's LRU) or, in the rows that say so, a new scenario every request (embedded each time); autocannon ${SECONDS} s after a 2 s warm-up, ${ROUNDS} alternating rounds, means.`,
      '',
      '| storage, when the turn is stored | connections | req/s | p50 ms | p99 ms | errors | non-2xx | req/s each round |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
    ];
    for (const connections of CONNECTIONS) {
      for (const name of [...targets.map((t) => t.name), ...uniques.map((t) => t.name)]) {
        const t = { name };
        const rs = runs.get(`${t.name}|${connections}`) ?? [];
        const sum = (f: (r: Omit<LoadRow, 'name'>) => number) => rs.reduce((a, r) => a + f(r), 0);
        lines.push(
          `| ${t.name} | ${connections} | ${mean(rs.map((r) => r.rps)).toFixed(0)} | ${mean(rs.map((r) => r.p50)).toFixed(1)} | ${mean(rs.map((r) => r.p99)).toFixed(1)} | ` +
            `${sum((r) => r.errors)} | ${sum((r) => r.non2xx)} | ${rs.map((r) => r.rps.toFixed(0)).join(', ')} |`,
        );
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await pg?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
