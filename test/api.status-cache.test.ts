import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, fileForm, startServer, waitForSnapshot, type Client, type TestServer } from './support/server.ts';
import { sampleInterview, zoomVtt } from './support/fixtures.ts';

/**
 * Final (completed or failed) snapshot statuses are answered from memory for STATUS_CACHE_MS.
 * Two more API processes share the first one's data folder: one caching, one not.
 */
const CACHE_MS = 1500;
let a: TestServer;
let b: TestServer;
let uncached: TestServer;
let apiA: Client;
let apiB: Client;

before(async () => {
  a = await startServer({ STATUS_CACHE_MS: String(CACHE_MS) });
  [b, uncached] = await Promise.all([
    startServer({ DATA_DIR: a.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: String(CACHE_MS) }),
    startServer({ DATA_DIR: a.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: '0' }),
  ]);
  apiA = client(a.api, a.apiKey);
  apiB = client(b.api, a.apiKey);
});
after(() => Promise.all([a.stop(), b.stop(), uncached.stop()]));

async function completedSnapshot(): Promise<{ mindId: string; path: string }> {
  const mindId = (await apiA.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const r = await apiA.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
  assert.equal(r.status, 200);
  const done = await waitForSnapshot(apiA, mindId, r.body.mindAssessmentId as string);
  assert.equal(done.status, 'completed');
  return { mindId, path: `/minds/${mindId}/snapshots/${done.id as string}/status` };
}

describe('final snapshot statuses from memory', () => {
  it('a deletion is seen at once by the process that made it', async () => {
    const { mindId, path } = await completedSnapshot();
    for (let i = 0; i < 3; i++) assert.equal((await apiA.get(path)).body.status, 'completed');
    assert.equal((await apiA.del(`/minds/${mindId}`)).status, 204);
    const gone = await apiA.get(path);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'mind_not_found');
  });

  it('by the other processes within STATUS_CACHE_MS, and at once with the cache off', async () => {
    const { mindId, path } = await completedSnapshot();
    const apiUncached = client(uncached.api, a.apiKey);
    assert.equal((await apiB.get(path)).body.status, 'completed'); // now in b's memory
    assert.equal((await apiUncached.get(path)).body.status, 'completed');
    assert.equal((await apiA.del(`/minds/${mindId}`)).status, 204);
    const deletedAt = Date.now();
    assert.equal((await apiUncached.get(path)).status, 404);
    let status = 200;
    while (status === 200 && Date.now() - deletedAt < CACHE_MS + 5000) {
      status = (await apiB.get(path)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 404);
    // The entry was at most CACHE_MS old when the mind went; generous slack for a loaded machine.
    assert.ok(Date.now() - deletedAt < CACHE_MS + 4000, `still answered ${Date.now() - deletedAt} ms after the deletion`);
  });

  it("another account's key never gets a cached status", async () => {
    const { path } = await completedSnapshot();
    assert.equal((await apiA.get(path)).status, 200);
    assert.equal((await apiB.get(path)).status, 200);
    const other = JSON.parse((await a.admin('create-account', '--email', 'cache-other@example.com', '--tier', 'pro')).stdout) as { apiKey: string };
    for (const srv of [a, b]) {
      const r = await client(srv.api, other.apiKey).get(path);
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'mind_not_found');
    }
  });

  it('a snapshot still pending is read afresh each time', async () => {
    // b runs no worker and a's worker is busy with nothing: a snapshot created through b is
    // pending until a's worker takes it, and b must see it change.
    const mindId = (await apiB.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
    const r = await apiB.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const s = (await apiB.get(`/minds/${mindId}/snapshots/${r.body.mindAssessmentId as string}/status`)).body.status as string;
      seen.add(s);
      if (s === 'completed' || s === 'failed' || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(seen.has('completed'), [...seen].join(','));
  });
});
