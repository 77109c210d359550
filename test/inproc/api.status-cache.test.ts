import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blobOf, failure, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, zoomVtt } from '../../testkit/fixtures.ts';

/**
 * Final (completed or failed) snapshot statuses are answered from memory for STATUS_CACHE_MS.
 * Two more API services share the first one's data folder (each its own store, limiter and
 * cache, as separate processes would have): one caching, one not.
 */
const CACHE_MS = 1500;
let a: Service;
let b: Service;
let uncached: Service;
let sdkA: TestSdk;
let sdkB: TestSdk;

before(async () => {
  a = await startService({ STATUS_CACHE_MS: String(CACHE_MS) });
  [b, uncached] = await Promise.all([
    startService({ DATA_DIR: a.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: String(CACHE_MS) }),
    startService({ DATA_DIR: a.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: '0' }),
  ]);
  sdkA = a.sdk();
  sdkB = b.sdk(a.apiKey);
});
after(() => Promise.all([b?.close(), uncached?.close()]).then(() => a?.close()));

async function completedSnapshot(): Promise<{ mindId: string; id: string }> {
  const { mind } = await sdkA.minds.create('Sam Okafor');
  const r = await sdkA.snapshots.create(mind.id, { file: blobOf(zoomVtt(sampleInterview())), fileName: 'z.vtt' });
  assert.equal(sdkA.last?.status, 200);
  const done = await waitFor(sdkA, mind.id, r.mindAssessmentId);
  assert.equal(done.status, 'completed');
  return { mindId: mind.id, id: done.id };
}

describe('final snapshot statuses from memory', () => {
  it('a deletion is seen at once by the process that made it', async () => {
    const { mindId, id } = await completedSnapshot();
    for (let i = 0; i < 3; i++) assert.equal((await sdkA.snapshots.status(mindId, id)).status, 'completed');
    await sdkA.minds.delete(mindId);
    assert.equal(sdkA.last?.status, 204);
    const gone = await failure(sdkA.snapshots.status(mindId, id));
    assert.equal(gone.status, 404);
    assert.equal(gone.code, 'MIND_NOT_FOUND');
  });

  it('by the other processes once their entry is STATUS_CACHE_MS old, and at once with the cache off', async () => {
    const { mindId, id } = await completedSnapshot();
    const sdkUncached = uncached.sdk(a.apiKey);
    assert.equal((await sdkB.snapshots.status(mindId, id)).status, 'completed'); // now in b's memory
    // b stored its entry before this answer came back: by this instant plus STATUS_CACHE_MS it has expired (b runs in
    // this process: the cache's clock, performance.now(), is this one).
    const expiredBy = performance.now() + CACHE_MS;
    assert.equal((await sdkUncached.snapshots.status(mindId, id)).status, 'completed');
    await sdkA.minds.delete(mindId);
    assert.equal(sdkA.last?.status, 204);
    assert.equal(await statusOf(sdkUncached.snapshots.status(mindId, id)), 404, 'the cache off: at once');
    // Not "within so many seconds": a read made after the entry's time to live must miss it, on any machine (a slower one
    // only reads later). Waiting out the time to live is the behaviour itself, not a guess at how long something takes.
    await new Promise((r) => setTimeout(r, Math.max(0, expiredBy - performance.now()) + 50));
    assert.equal(await statusOf(sdkB.snapshots.status(mindId, id)), 404, 'b read the status afresh once its entry had expired');
  });

  it("another account's key never gets a cached status", async () => {
    const { mindId, id } = await completedSnapshot();
    assert.equal(await statusOf(sdkA.snapshots.status(mindId, id)), 200);
    assert.equal(await statusOf(sdkB.snapshots.status(mindId, id)), 200);
    const other = await a.admin.createAccount('cache-other@example.com', 'pro');
    for (const srv of [a, b]) {
      const r = await failure(srv.sdk(other.apiKey).snapshots.status(mindId, id));
      assert.equal(r.status, 404);
      assert.equal(r.code, 'MIND_NOT_FOUND');
    }
  });

  it('a snapshot still pending is read afresh each time', async () => {
    // b runs no worker and a's worker is busy with nothing: a snapshot created through b is
    // pending until a's worker takes it, and b must see it change.
    const mindId = (await sdkB.minds.create('Sam Okafor')).mind.id;
    const r = await sdkB.snapshots.create(mindId, { file: blobOf(zoomVtt(sampleInterview())), fileName: 'z.vtt' });
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const s = (await sdkB.snapshots.status(mindId, r.mindAssessmentId)).status;
      seen.add(s);
      if (s === 'completed' || s === 'failed' || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(seen.has('completed'), [...seen].join(','));
  });
});
