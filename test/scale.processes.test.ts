import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { client, waitForSnapshot, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { PG_SKIP, createDatabase, startS3, type TestDatabase, type TestS3 } from '../testkit/scale.ts';
import { waitUntil } from '../testkit/wait.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The sample interview repeated, each copy later in time, so processing takes a while. */
function longVtt(copies: number, tag: string): string {
  const turns = sampleInterview();
  const all = [];
  for (let i = 0; i < copies; i++) for (const t of turns) all.push({ ...t, text: `${t.text} (${tag} part ${i})` });
  return teamsVtt(all);
}

interface WorkerProcess {
  proc: ChildProcess;
  output(): string;
}

describe('two API processes and two workers on one PostgreSQL and one bucket', { skip: PG_SKIP }, () => {
  let db: TestDatabase;
  let s3: TestS3;
  let apiA: TestServer;
  let apiB: TestServer;
  const workers: WorkerProcess[] = [];
  let env: Record<string, string>;

  const startWorker = (): WorkerProcess => {
    let out = '';
    const proc = spawn(process.execPath, ['src/main.ts', '--worker-only'], {
      cwd: ROOT,
      env: { ...apiA.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const w = { proc, output: () => out };
    workers.push(w);
    return w;
  };

  before(async () => {
    [db, s3] = await Promise.all([createDatabase(), startS3()]);
    env = { DATABASE_URL: db.url, ...s3.env, RUN_WORKER: 'false', JOB_LEASE_MS: '1000', WORKER_POLL_MS: '20' };
    apiA = await startServer(env);
    apiB = await startServer(env); // the owner exists already: B prints no key, A's works on both
  });
  after(async () => {
    for (const w of workers) if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGKILL');
    await Promise.all([apiA?.stop(), apiB?.stop()]);
    await s3?.close();
    await db?.drop();
  });

  it('every snapshot completes exactly once although a worker is killed midway; both APIs simulate', async () => {
    const a = client(apiA.api, apiA.apiKey);
    const b = client(apiB.api, apiA.apiKey);
    const mindId = (await a.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;

    // Six snapshots, alternately through A and B, uploaded straight to the bucket.
    const snaps: Array<{ id: string; via: Client }> = [];
    for (let i = 0; i < 6; i++) {
      const via = i % 2 === 0 ? a : b;
      const signed = (await via.get(`/minds/${mindId}/signed-url?fileName=t${i}.vtt`)).body;
      assert.equal((await fetch(signed.signedUrl, { method: 'PUT', body: longVtt(i < 2 ? 30 : 10, `s${i}`) })).status, 200);
      const form = new FormData();
      form.append('artifactId', signed.artifactId);
      const r = await via.post(`/minds/${mindId}/snapshots`, form);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      snaps.push({ id: r.body.mindAssessmentId, via });
    }

    const [victim] = [startWorker(), startWorker()];
    // Kill the first worker with SIGKILL while both workers hold a job.
    let states: string[] = [];
    await waitUntil(
      async () => {
        states = (await Promise.all(snaps.map((s) => s.via.get(`/minds/${mindId}/snapshots/${s.id}/status`)))).map((r) => r.body.status as string);
        return states.filter((s) => s === 'processing').length >= 2;
      },
      { what: () => `two jobs at once (${states.join(',')})`, intervalMs: 10 },
    );
    victim?.proc.kill('SIGKILL');

    for (const s of snaps) {
      const done = await waitForSnapshot(s.via, mindId, s.id, 90_000);
      assert.equal(done.status, 'completed', JSON.stringify(done) + workers.map((w) => w.output()).join('\n'));
    }

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const mem = await c.query<{ snapshot_id: string; n: string; d: string; count: number }>(
        `select m.snapshot_id, count(*) as n, count(distinct m.seq) as d, s.memory_count as count
           from memories m join snapshots s on s.id = m.snapshot_id group by m.snapshot_id, s.memory_count`,
      );
      assert.equal(mem.rows.length, snaps.length);
      for (const r of mem.rows) {
        assert.equal(Number(r.n), Number(r.d), `a memory of ${r.snapshot_id} was written twice`);
        assert.equal(Number(r.n), r.count);
      }
      // The snapshots' jobs (each worker also queues the retention sweep, a job of its own kind).
      const jobs = await c.query<{ state: string; attempts: number }>("select state, attempts from jobs where kind = 'process-snapshot'");
      assert.equal(jobs.rows.length, snaps.length, 'one job per snapshot');
      assert.ok(jobs.rows.every((j) => j.state === 'done'));
      assert.ok(jobs.rows.some((j) => j.attempts >= 2), 'the killed worker’s job was delivered again');
    } finally {
      await c.end();
    }

    for (const via of [a, b]) {
      const sim = await via.post('/simulate', { mindId, scenario: { message: 'How do you like your coffee?' } });
      assert.equal(sim.status, 200);
      assert.equal(sim.body.snapshotIds.length, snaps.length);
    }
  });
});
