import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';

/** SIGTERM to `node src/main.ts` during a job (the usage counts written on SIGTERM: processes.test.ts). */
let srv: TestServer;
before(async () => {
  srv = await startServer({ SHUTDOWN_GRACE_MS: '50', WORKER_POLL_MS: '20' });
});
after(() => srv.stop());

/** The job of the snapshot and the snapshot's status, read from the data folder (the process has exited, or reads alongside). */
function stored(id: string): { job: { state: string; attempts: number }; status: string } {
  const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    const job = db.prepare('select state, attempts from jobs where payload like ?').get(`%${id}%`) as { state: string; attempts: number };
    const { status } = db.prepare('select status from snapshots where id = ?').get(id) as { status: string };
    return { job, status };
  } finally {
    db.close();
  }
}

// The job takes seconds of work; the grace is 50 ms. "Exits soon" is asserted by order, not by a clock: the process has
// exited before the job could finish (it is handed back, unfinished). The test's timeout is the deadline for a process
// that never exits or a job that never completes: over ten times what the test takes on a busy machine.
it('SIGTERM during a long job exits soon and hands the job back; it completes after restart, its attempt not counted', { timeout: 400_000 }, async () => {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const turns = sampleInterview();
  const all = [];
  // 30 copies: ~24,000 words, several seconds of processing (embedding the passages is most of it).
  for (let i = 0; i < 30; i++) for (const t of turns) all.push({ ...t, text: `${t.text} (part ${i})` });
  const signed = (await api.get(`/minds/${mindId}/signed-url?fileName=long.vtt`)).body;
  assert.equal((await fetch(signed.signedUrl, { method: 'PUT', body: teamsVtt(all) })).status, 200);
  const form = new FormData();
  form.append('artifactId', signed.artifactId);
  const id = (await api.post(`/minds/${mindId}/snapshots`, form)).body.mindAssessmentId as string;

  const deadline = Date.now() + 20_000;
  let seen = '';
  while (seen !== 'processing' && Date.now() < deadline) {
    seen = (await api.get(`/minds/${mindId}/snapshots/${id}/status`)).body.status;
    if (seen === 'completed') assert.fail('processing finished before the shutdown could happen');
    if (seen !== 'processing') await new Promise((r) => setTimeout(r, 5));
  }
  await srv.stop('SIGTERM');
  assert.equal(srv.proc.exitCode, 0, srv.output());
  assert.match(srv.output(), /job released at shutdown/);
  // Exited before the job's end: the job is queued again with its attempt given back, the snapshot not completed.
  const atExit = stored(id);
  assert.deepEqual(atExit.job, { state: 'queued', attempts: 0 });
  assert.notEqual(atExit.status, 'completed');

  await srv.start();
  const done = await waitForSnapshot(api, mindId, id, 240_000);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.deepEqual(stored(id).job, { state: 'done', attempts: 1 });
});

