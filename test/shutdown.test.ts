import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { client, waitForSnapshot } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { heldJobs, type HeldJobs } from '../testkit/held-snapshot.ts';

/** SIGTERM to `node src/main.ts` during a job (the usage counts written on SIGTERM: processes.test.ts). */
let srv: TestServer;
let held: HeldJobs;
before(async () => {
  held = await heldJobs();
  srv = await startServer({ SHUTDOWN_GRACE_MS: '50', WORKER_POLL_MS: '20', ...held.env });
});
after(async () => {
  await srv.stop();
  await held.close();
});

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

// The job is held mid-way (testkit/held-snapshot.ts: its LLM request is not answered) and the grace is 50 ms. "Exits
// soon" is asserted by order, not by a clock: the process has exited while the job could not finish (it is handed
// back, unfinished). The test's timeout is the deadline for a process that never exits or a job that never completes.
it('SIGTERM during a job exits soon and hands the job back; it completes after restart, its attempt not counted', { timeout: 120_000 }, async () => {
  const api = client(srv.api, srv.apiKey);
  const { mindId, id } = await held.snapshot(api);
  await held.reached();
  await srv.stop('SIGTERM');
  assert.equal(srv.proc.exitCode, 0, srv.output());
  assert.match(srv.output(), /job released at shutdown/);
  // Exited before the job's end: the job is queued again with its attempt given back, the snapshot not completed.
  const atExit = stored(id);
  assert.deepEqual(atExit.job, { state: 'queued', attempts: 0 });
  assert.notEqual(atExit.status, 'completed');

  held.holding = false;
  await srv.start();
  const done = await waitForSnapshot(api, mindId, id, 60_000);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.deepEqual(stored(id).job, { state: 'done', attempts: 1 });
});

