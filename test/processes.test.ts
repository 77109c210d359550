import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, fileForm, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { usageRows } from '../testkit/database.ts';
import { sampleInterview, zoomVtt } from '../testkit/fixtures.ts';

/** `node src/main.ts` itself: its first start, SIGTERM and a restart, and the API and the worker as separate processes. */
const ROOT = path.resolve(import.meta.dirname, '..');
let srv: TestServer;
before(async () => {
  // No usage flush during the file: the counts reach the database on SIGTERM only.
  srv = await startServer({ RUN_WORKER: 'false', USAGE_FLUSH_MS: '600000' });
});
after(() => srv.stop());

it('prints an owner API key once on the first start and answers /healthz', async () => {
  assert.match(srv.apiKey, /^msk_[0-9a-f]{8}_/);
  assert.equal(srv.output().split(srv.apiKey).length, 2, 'the key is printed exactly once');
  const r = await fetch(`${srv.baseUrl}/healthz`);
  assert.equal(r.status, 200);
  assert.ok(r.headers.get('x-request-id'));
});


let survivor = '';

it('the usage meter writes the counts still in memory on SIGTERM', async () => {
  const today = () => new Date().toISOString().slice(0, 10);
  const api = client(srv.api, srv.apiKey);
  for (let i = 0; i < 4; i++) assert.equal((await api.get('/models')).status, 200);
  survivor = (await api.post('/minds', { name: 'Survivor' })).body.mind.id as string;
  assert.deepEqual(usageRows(srv.dataDir, srv.ownerAccountId), [], 'nothing written before the flush');
  await srv.stop('SIGTERM');
  assert.deepEqual(usageRows(srv.dataDir, srv.ownerAccountId), [{ day: today(), requests: 5 }]);
});

it('does not print the key again on restart, and keeps the data', async () => {
  const before = srv.output().length;
  await srv.start();
  assert.doesNotMatch(srv.output().slice(before), /msk_/);
  const got = await client(srv.api, srv.apiKey).get(`/minds/${survivor}`);
  assert.equal(got.status, 200);
  assert.equal(got.body.name, 'Survivor');
});

it('RUN_WORKER=false serves the API only; `npm run worker` alone processes the snapshots', async () => {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const r = await api.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
  assert.equal(r.status, 200);
  const id = r.body.mindAssessmentId as string;
  assert.equal((await api.get(`/minds/${mindId}/snapshots/${id}/status`)).body.status, 'pending');

  const worker = spawn('npm', ['run', '--silent', 'worker'], { cwd: ROOT, env: srv.env, stdio: 'ignore', detached: true });
  try {
    const done = await waitForSnapshot(api, mindId, id, 30_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    // Who took the job, not how long nobody did: the worker's id is host:pid:…, and it is not the API process's.
    const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true });
    try {
      const job = db.prepare('select state, locked_by from jobs where payload like ?').get(`%${id}%`) as { state: string; locked_by: string };
      assert.equal(job.state, 'done');
      assert.match(job.locked_by, /^[^:]+:\d+:/);
      assert.doesNotMatch(job.locked_by, new RegExp(`:${srv.proc.pid}:`), 'the API process (RUN_WORKER=false) never took the job');
    } finally {
      db.close();
    }
    const sim = await api.post('/simulate', { mindId, scenario: { message: 'How do you like your coffee?' } });
    assert.equal(sim.status, 200);
    assert.match(sim.body.analysis.saying, /coffee|cups|decaf|beans/i);
  } finally {
    const exited = new Promise((res) => worker.once('exit', res));
    process.kill(-(worker.pid ?? 0), 'SIGTERM');
    await exited;
  }
});
