import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { client, fileForm, startServer, waitForSnapshot, type TestServer } from './support/server.ts';
import { sampleInterview, zoomVtt } from './support/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
let srv: TestServer;
before(async () => {
  srv = await startServer({ RUN_WORKER: 'false' });
});
after(() => srv.stop());

it('RUN_WORKER=false serves the API only; `npm run worker` alone processes the snapshots', async () => {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const r = await api.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
  assert.equal(r.status, 200);
  const id = r.body.mindAssessmentId as string;
  await new Promise((res) => setTimeout(res, 500));
  assert.equal((await api.get(`/minds/${mindId}/snapshots/${id}/status`)).body.status, 'pending');

  const worker = spawn('npm', ['run', '--silent', 'worker'], { cwd: ROOT, env: srv.env, stdio: 'ignore', detached: true });
  try {
    const done = await waitForSnapshot(api, mindId, id, 30_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const sim = await api.post('/simulate', { mindId, scenario: { message: 'How do you like your coffee?' } });
    assert.equal(sim.status, 200);
    assert.match(sim.body.analysis.saying, /coffee|cups|decaf|beans/i);
  } finally {
    const exited = new Promise((res) => worker.once('exit', res));
    process.kill(-(worker.pid ?? 0), 'SIGTERM');
    await exited;
  }
});
