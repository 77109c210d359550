import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';

let srv: TestServer;
before(async () => {
  srv = await startServer({ JOB_LEASE_MS: '1000', WORKER_POLL_MS: '20' });
});
after(() => srv.stop());

/** A long transcript: the sample interview repeated, each copy later in time, so processing takes a while. */
function bigVtt(copies: number): string {
  const turns = sampleInterview();
  const all = [];
  for (let i = 0; i < copies; i++) {
    for (const t of turns) all.push({ ...t, text: `${t.text} (part ${i})` });
  }
  return teamsVtt(all);
}

it('a snapshot whose process is killed with SIGKILL mid-processing completes after restart, exactly once', async () => {
  const api = client(srv.api, srv.apiKey);
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const signed = (await api.get(`/minds/${mindId}/signed-url?fileName=long.vtt`)).body;
  // ~24,000 words: several seconds of processing (most of it embedding the passages, ~0.45 ms of CPU a word),
  // long enough to be killed mid-way; the wait after the restart leaves ten times the room it needs.
  const vtt = bigVtt(30);
  assert.equal((await fetch(signed.signedUrl, { method: 'PUT', body: vtt })).status, 200);
  const form = new FormData();
  form.append('artifactId', signed.artifactId);
  const snap = await api.post(`/minds/${mindId}/snapshots`, form);
  assert.equal(snap.status, 200);
  const id = snap.body.mindAssessmentId as string;

  let seen = '';
  const deadline = Date.now() + 20_000;
  while (seen !== 'processing' && Date.now() < deadline) {
    seen = (await api.get(`/minds/${mindId}/snapshots/${id}/status`)).body.status;
    if (seen === 'completed') assert.fail('processing finished before the crash could happen');
    if (seen !== 'processing') await new Promise((r) => setTimeout(r, 5));
  }
  assert.equal(seen, 'processing');
  await srv.stop('SIGKILL');

  await srv.start();
  const done = await waitForSnapshot(api, mindId, id, 60_000);
  assert.equal(done.status, 'completed', JSON.stringify(done));

  const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    const row = db.prepare('select count(*) as n, count(distinct seq) as d from memories where snapshot_id = ?').get(id) as { n: number; d: number };
    assert.ok(row.n > 0);
    assert.equal(row.n, row.d, 'no memory was written twice');
    const job = db.prepare("select state, attempts from jobs where payload like ?").get(`%${id}%`) as { state: string; attempts: number };
    assert.equal(job.state, 'done');
    assert.equal(job.attempts, 2);
  } finally {
    db.close();
  }
  const sim = await api.post('/simulate', { mindId, scenario: { message: 'What do you think about remote work?' } });
  assert.equal(sim.status, 200);
});
