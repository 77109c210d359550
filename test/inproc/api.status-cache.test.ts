import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blobOf, failure, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, zoomVtt } from '../../testkit/fixtures.ts';
import { testClock } from '../../testkit/clock.ts';
import { waitUntil } from '../../testkit/wait.ts';

/**
 * Final (completed or failed) snapshot statuses are answered from memory for STATUS_CACHE_MS.
 * Two more API services share the first one's data folder (each its own store, limiter and
 * cache, as separate processes would have): one caching, one not. b's entries expire on b's
 * clock, which the test moves past STATUS_CACHE_MS (a minute: no machine is that slow between two reads).
 */
const CACHE_MS = 60_000;
const bClock = testClock();
let a: Service;
let b: Service;
let uncached: Service;
let sdkA: TestSdk;
let sdkB: TestSdk;

before(async () => {
  a = await startService({ STATUS_CACHE_MS: String(CACHE_MS) });
  [b, uncached] = await Promise.all([
    startService({ DATA_DIR: a.dataDir, RUN_WORKER: 'false', STATUS_CACHE_MS: String(CACHE_MS) }, { rt: bClock }),
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
    assert.equal((await sdkUncached.snapshots.status(mindId, id)).status, 'completed');
    await sdkA.minds.delete(mindId);
    assert.equal(sdkA.last?.status, 204);
    assert.equal(await statusOf(sdkUncached.snapshots.status(mindId, id)), 404, 'the cache off: at once');
    assert.equal((await sdkB.snapshots.status(mindId, id)).status, 'completed', 'b answers from its memory within STATUS_CACHE_MS');
    bClock.advance(CACHE_MS + 1);
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
    // b runs no worker: a snapshot is pending or processing until a's worker is done with it, and b
    // must see it change. (Made through a: b's clock is ahead, so a job b queued would be due later.)
    const mindId = (await sdkA.minds.create('Sam Okafor')).mind.id;
    const r = await sdkA.snapshots.create(mindId, { file: blobOf(zoomVtt(sampleInterview())), fileName: 'z.vtt' });
    const seen = new Set<string>();
    await waitUntil(
      async () => {
        const s = (await sdkB.snapshots.status(mindId, r.mindAssessmentId)).status;
        seen.add(s);
        return s === 'completed' || s === 'failed';
      },
      { what: 'the pending snapshot read through b to end' },
    );
    assert.ok(seen.has('completed'), [...seen].join(','));
  });
});
