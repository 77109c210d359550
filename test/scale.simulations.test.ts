/**
 * Background simulations in scale-out: an API process without a worker (RUN_WORKER=false) and a
 * worker-only process on one PostgreSQL database. The API only queues the turn; the worker process
 * takes the run-simulation job and stores the answer. Skipped without TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { client, fileForm, waitForSnapshot, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../testkit/scale.ts';
import { waitUntil } from '../testkit/wait.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('a background simulation queued by an API process is answered by a worker process (PostgreSQL)', { skip: PG_SKIP }, () => {
  let db: TestDatabase;
  let apiServer: TestServer;
  let api: Client;
  let worker: ChildProcess | null = null;
  let workerOutput = '';

  const startWorker = () => {
    workerOutput = '';
    worker = spawn(process.execPath, ['src/main.ts', '--worker-only'], { cwd: ROOT, env: apiServer.env, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout?.on('data', (d: Buffer) => (workerOutput += d.toString()));
    worker.stderr?.on('data', (d: Buffer) => (workerOutput += d.toString()));
  };
  const stopWorker = async () => {
    const w = worker;
    if (!w || w.exitCode !== null || w.signalCode !== null) return;
    const exited = new Promise((r) => w.once('exit', r));
    w.kill('SIGTERM');
    await exited;
  };

  before(async () => {
    db = await createDatabase();
    apiServer = await startServer({ DATABASE_URL: db.url, RUN_WORKER: 'false', WORKER_POLL_MS: '20' });
    api = client(apiServer.api, apiServer.apiKey);
  });
  after(async () => {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await apiServer?.stop();
    await db?.drop();
  });

  it('queued → running → completed, with the answer stored, only once a worker process runs', async () => {
    const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
    const started = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt'));
    assert.equal(started.status, 200, JSON.stringify(started.body));
    startWorker();
    assert.equal((await waitForSnapshot(api, mindId, started.body.mindAssessmentId, 60_000)).status, 'completed', workerOutput);
    await stopWorker();

    const scenario = { mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How do you deal with burnout?' } };
    const queued = await client(`${apiServer.baseUrl}/api/mindsim`, apiServer.apiKey).post('/simulate', { ...scenario, runInBackground: true });
    assert.equal(queued.status, 200, JSON.stringify(queued.body));
    assert.equal(queued.body.status, 'queued');
    const id = queued.body.simulationId as string;
    // No worker: the API process never answers it itself (the job's locked_by, below, says who did).
    assert.equal((await api.get(`/simulations/${id}`)).body.simulation.status, 'queued');

    startWorker();
    const seen: string[] = [];
    const detail = await waitUntil(
      async () => {
        const d = (await api.get(`/simulations/${id}`)).body;
        if (seen.at(-1) !== d.simulation.status) seen.push(d.simulation.status);
        return d.simulation.status === 'completed' || d.simulation.status === 'failed' ? d : null;
      },
      { what: () => `the simulation answered (seen ${seen.join(' → ')})\n${workerOutput}`, timeoutMs: 60_000 },
    );
    assert.equal(detail.simulation.status, 'completed', JSON.stringify(detail) + workerOutput);
    assert.ok(seen.every((s) => ['queued', 'running', 'completed'].includes(s)), seen.join(' → '));
    assert.deepEqual(detail.messages.map((m: { role: string }) => m.role), ['user', 'assistant']);
    const sync = await api.post('/simulate', scenario);
    assert.equal(detail.messages[1].content.text, sync.body.message);
    assert.deepEqual(detail.messages[1].content.evidence, sync.body.evidence);
    await stopWorker();

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const jobs = await c.query<{ state: string; group_key: string; locked_by: string | null }>(`select state, group_key, locked_by from jobs where kind = 'run-simulation'`);
      assert.equal(jobs.rows.length, 1);
      assert.equal(jobs.rows[0]?.state, 'done');
      assert.match(jobs.rows[0]?.locked_by ?? '', new RegExp(`:${worker?.pid}:`), 'the worker process answered it');
      assert.equal(jobs.rows[0]?.group_key, apiServer.ownerAccountId, 'grouped by account, like snapshots');
    } finally {
      await c.end();
    }
  });
});
