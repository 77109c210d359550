import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';
import { REDIS_SKIP, startRedis, type TestRedis } from '../testkit/redis.ts';
import { createDatabase, pgAdminUrl } from '../testkit/scale.ts';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { loadOnce, type LoadRow } from './measure.ts';

/**
 * The rate limiter's cost on the status route: the same route on API-only processes over one
 * data folder, with the limiter off, counting in memory, in the database (SQLite) and in Redis
 * (when redis-server is installed). Limits are set far above the load, so nothing is refused.
 * Part of `npm run bench`; `node --import tsx bench/rate-limit.ts` runs it alone and prints the section.
 */
const NO_LIMIT = { RATE_LIMIT_STANDARD: '1000000000', RATE_LIMIT_PRO: '1000000000' };

export interface Target {
  name: string;
  opts: autocannon.Options;
}

export interface LimiterBench {
  targets: Target[];
  stop(): Promise<void>;
}

export const LIMITER_ROW = 'status, rate limiter';
/** Keys of the "many keys" rows: the load spread over rows of the database store, as real clients are. */
const MANY_KEYS = 20;

/** More API keys of the service's owner account (through the operator CLI, five at a time). */
async function extraKeys(srv: TestServer, n: number): Promise<string[]> {
  const keys: string[] = [];
  while (keys.length < n) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, n - keys.length) }, () => srv.admin('create-api-key', '--account', srv.ownerAccountId)),
    );
    for (const r of batch) keys.push((JSON.parse(r.stdout) as { apiKey: string }).apiKey);
  }
  return keys;
}

/** A service and the status path of one of its completed snapshots (under the API prefix). */
export interface StatusTarget {
  srv: TestServer;
  statusPath: string;
}

/**
 * Starts one API-only process per limiter setting on `sqlite`'s data folder, and when `pg` is
 * given (a service on PostgreSQL), two more on its database: the limiter off and in the database.
 */
export async function limiterTargets(sqlite: StatusTarget, pg?: StatusTarget): Promise<LimiterBench> {
  const redis: TestRedis | null = REDIS_SKIP ? null : await startRedis();
  const settings: Array<[string, StatusTarget, Record<string, string>, number?]> = [
    ['off', sqlite, { RATE_LIMIT_ENABLED: 'false' }],
    ['memory', sqlite, { RATE_LIMIT_STORE: 'memory' }],
    ['database (SQLite)', sqlite, { RATE_LIMIT_STORE: 'database' }],
    [`database (SQLite), ${MANY_KEYS} keys`, sqlite, { RATE_LIMIT_STORE: 'database' }, MANY_KEYS],
    ...(redis ? [['Redis', sqlite, { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url }] as [string, StatusTarget, Record<string, string>]] : []),
    ...(pg
      ? ([
          ['off, on PostgreSQL', pg, { RATE_LIMIT_ENABLED: 'false' }],
          ['database (PostgreSQL)', pg, { RATE_LIMIT_STORE: 'database' }],
          [`database (PostgreSQL), ${MANY_KEYS} keys`, pg, { RATE_LIMIT_STORE: 'database' }, MANY_KEYS],
        ] as Array<[string, StatusTarget, Record<string, string>, number?]>)
      : []),
  ];
  const servers: TestServer[] = [];
  try {
    for (const [, base, env] of settings) {
      const url = base.srv.env.DATABASE_URL;
      const db: Record<string, string> = url ? { DATABASE_URL: url } : {};
      servers.push(await startServer({ LOG_LEVEL: 'warn', ...NO_LIMIT, ...db, ...env, DATA_DIR: base.srv.dataDir, RUN_WORKER: 'false' }));
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    throw err;
  }
  const keys = new Map<TestServer, string[]>();
  for (const [, base, , n] of settings) if (n && !keys.has(base.srv)) keys.set(base.srv, await extraKeys(base.srv, n));
  return {
    targets: settings.map(([name, base, , n], i) => {
      const url = `${servers[i]?.api}${base.statusPath}`;
      // Several keys: each connection cycles through them, as many clients with a key each would.
      const many = n ? keys.get(base.srv) ?? [] : [];
      const opts: autocannon.Options = many.length
        ? { url, requests: many.map((k) => ({ method: 'GET', path: new URL(url).pathname, headers: { authorization: `Bearer ${k}` } })) }
        : { url, headers: { authorization: `Bearer ${base.srv.apiKey}` } };
      return { name: `${LIMITER_ROW} ${name}`, opts };
    }),
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await redis?.stop();
    },
  };
}

/** The BENCHMARKS.md section from the limiter rows (the first, "off", is the reference). */
export function renderLimiterCost(rows: LoadRow[], note: string): string[] {
  const mine = rows.filter((r) => r.name.startsWith(LIMITER_ROW));
  if (mine.length === 0) return [];
  const rps = (suffix: string) => mine.find((r) => r.name === `${LIMITER_ROW} ${suffix}`)?.rps ?? 1;
  // The PostgreSQL rows are compared with the limiter off on PostgreSQL, the others with it off on SQLite.
  const base = (name: string) => (name.includes('PostgreSQL') ? rps('off, on PostgreSQL') : rps('off'));
  return [
    '## Rate limiter cost on the status route',
    '',
    note,
    '',
    '| limiter | req/s | mean p50 ms | mean p99 ms | errors | non-2xx | vs off |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...mine.map(
      (l) =>
        `| ${l.name.slice(LIMITER_ROW.length + 1)} | ${Math.round(l.rps)} | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.errors} | ${l.non2xx} | ${((l.rps / base(l.name)) * 100).toFixed(0)}% |`,
    ),
    '',
  ];
}

/** Standalone: one service with a completed snapshot, the limiter targets, BENCH_ROUNDS alternating rounds of BENCH_SECONDS. */
async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const srv = await startServer({ LOG_LEVEL: 'warn', ...NO_LIMIT });
  const pgDb = pgAdminUrl ? await createDatabase() : null;
  const pgSrv = pgDb ? await startServer({ LOG_LEVEL: 'warn', ...NO_LIMIT, DATABASE_URL: pgDb.url }) : null;
  let bench: LimiterBench | null = null;
  try {
    bench = await limiterTargets(await withSnapshot(srv), pgSrv ? await withSnapshot(pgSrv) : undefined);
    const runs = new Map<string, LoadRow[]>();
    for (let round = 0; round < rounds; round++) {
      for (const t of bench.targets) {
        const r = await loadOnce({ connections: 50, duration: seconds, ...t.opts });
        runs.set(t.name, [...(runs.get(t.name) ?? []), { name: t.name, ...r }]);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const rows = bench.targets.map((t) => {
      const rs = runs.get(t.name) ?? [];
      const sum = (f: (r: LoadRow) => number) => rs.reduce((a, r) => a + f(r), 0);
      return { name: t.name, rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: mean(rs.map((r) => r.p99)), errors: sum((r) => r.errors), non2xx: sum((r) => r.non2xx) };
    });
    const note = `Run: ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}; \`bench/rate-limit.ts\`, autocannon 50 connections × ${seconds} s after a 2 s warm-up, ${rounds} alternating round(s), means.`;
    process.stdout.write(`${renderLimiterCost(rows, note).join('\n')}\n`);
  } finally {
    await bench?.stop();
    await srv.stop();
    await pgSrv?.stop();
    await pgDb?.drop();
  }
}

/** A mind with one completed snapshot of a 2,000-word interview, and the path of its status. */
export async function withSnapshot(srv: TestServer): Promise<StatusTarget> {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const form = new FormData();
  form.append('file', new Blob([teamsVtt(longInterview(2000))]), 'i.vtt');
  const snap = await api.post(`/minds/${mindId}/snapshots`, form);
  await waitForSnapshot(api, mindId, snap.body.mindAssessmentId);
  return { srv, statusPath: `/minds/${mindId}/snapshots/${snap.body.mindAssessmentId}/status` };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
