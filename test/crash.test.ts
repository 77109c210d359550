import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { heldJobs, type HeldJobs } from '../testkit/held-snapshot.ts';

let srv: TestServer;
let held: HeldJobs;
before(async () => {
  held = await heldJobs();
  srv = await startServer({ JOB_LEASE_MS: '1000', WORKER_POLL_MS: '20', ...held.env });
});
after(async () => {
  await srv.stop();
  await held.close();
});

it('a snapshot whose process is killed with SIGKILL mid-processing completes after restart, exactly once', async () => {
  const api = client(srv.api, srv.apiKey);
  // The worker analyses and embeds the transcript, then asks the LLM for its reflections: held there (testkit/held-snapshot.ts).
  const { mindId, id } = await held.snapshot(api);
  await held.reached();
  assert.equal((await api.get(`/minds/${mindId}/snapshots/${id}/status`)).body.status, 'processing');
  await srv.stop('SIGKILL');

  held.holding = false;
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
  const sim = await api.post('/simulate', { mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'What do you think about remote work?' } });
  assert.equal(sim.status, 200);
});
