import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { client, waitForSnapshot, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';
import { createDatabase, pgAdminUrl, type TestDatabase } from '../testkit/scale.ts';

/**
 * The PostgreSQL side of `npm run bench`: a service on PostgreSQL next to the SQLite one, and
 * snapshots processed per minute by one and by two worker processes. Needs TEST_DATABASE_URL
 * (as the PostgreSQL tests do); without it these parts are left out of the report.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

export const postgresAvailable = pgAdminUrl !== null;

export interface PgService {
  srv: TestServer;
  api: Client;
  close(): Promise<void>;
}

export async function startPgService(env: Record<string, string> = {}): Promise<PgService> {
  const db: TestDatabase = await createDatabase();
  const srv = await startServer({ LOG_LEVEL: 'warn', DATABASE_URL: db.url, ...env });
  return {
    srv,
    api: client(srv.api, srv.apiKey),
    close: async () => {
      await srv.stop();
      await db.drop();
    },
  };
}

export interface WorkerThroughput {
  workers: number;
  snapshots: number;
  seconds: number;
  perMinute: number;
}

/**
 * Starts `workers` worker processes on PostgreSQL and, once they are idle, sends `count`
 * snapshots of a one-hour interview through an API-only process; timed from the first request
 * until every snapshot is completed.
 */
export async function workerThroughput(workers: number, count: number): Promise<WorkerThroughput> {
  const svc = await startPgService({ RUN_WORKER: 'false' });
  const procs: ChildProcess[] = [];
  try {
    const { api, srv } = svc;
    const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
    const vtt = teamsVtt(longInterview(3300));
    // Workers first, ready and idle, so their start-up is not timed.
    await Promise.all(
      Array.from({ length: workers }, () => {
        const p = spawn(process.execPath, ['src/main.ts', '--worker-only'], {
          cwd: ROOT,
          env: { ...srv.env, WORKER_POLL_MS: '20', LOG_LEVEL: 'info' },
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        procs.push(p);
        return new Promise<void>((resolve, reject) => {
          p.stdout?.on('data', (d: Buffer) => d.toString().includes('service started') && resolve());
          p.once('exit', () => reject(new Error('a worker exited at start')));
        });
      }),
    );
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const form = new FormData();
      form.append('file', new Blob([vtt]), `i${i}.vtt`);
      ids.push((await api.post(`/minds/${mindId}/snapshots`, form)).body.mindAssessmentId as string);
    }
    for (const id of ids) {
      const s = await waitForSnapshot(api, mindId, id, 600_000);
      if (s.status !== 'completed') throw new Error(`snapshot ${id} ${s.status}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { workers, snapshots: count, seconds, perMinute: (count / seconds) * 60 };
  } finally {
    await Promise.all(
      procs.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill('SIGTERM'))))),
    );
    await svc.close();
  }
}
