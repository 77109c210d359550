/**
 * The cache of indexed memories is bounded by bytes (MEMORY_CACHE_MB), not by a count of minds:
 * with a budget that holds only a few of them, many minds are simulated in turn, the bytes the
 * cache counts never exceed the budget, each set is counted at its estimated size once built (not
 * at what a loading entry counts for), the least recently used are dropped, and a dropped mind is
 * read and indexed again on its next simulate and answers exactly as it did before. Everything is
 * judged by counted bytes and by which sets are held, never by time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { longInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { blobOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';

/** Each mind ~75–80 KB by its estimate (MindMemory.bytes of ~700 words, 45 sentences): the budget holds three. */
const MINDS = 6;
const WORDS = 700;
const BUDGET_MB = 0.25;
const SCENARIO = 'Your manager asks you to ship on Friday although the tests are flaky. What do you do?';

let srv: Service;
let sdk: TestSdk;

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', MEMORY_CACHE_MB: String(BUDGET_MB) });
  sdk = srv.sdk();
});
after(async () => {
  await srv?.close();
});

interface Mind {
  mindId: string;
  snapshotId: string;
}

async function mind(seed: number): Promise<Mind> {
  const { mind } = await sdk.minds.create('Sam Okafor');
  const created = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(longInterview(WORDS, seed))), fileName: 'interview.vtt' });
  const done = await waitFor(sdk, mind.id, created.mindAssessmentId, 120_000);
  assert.equal(done.status, 'completed');
  return { mindId: mind.id, snapshotId: done.id };
}

/** What a simulate answers that depends on the mind's memory alone (ids and times left out). */
async function answer(m: Mind) {
  const r = await sdk.simulate({ mindId: m.mindId, scenario: { message: SCENARIO } });
  return { message: r.message, confidence: r.confidence, evidence: r.evidence?.map((e) => [e.text, e.snapshotId, e.score]) };
}

describe('memory cache bounded by bytes', () => {
  it('simulates many minds in turn within the budget and rebuilds the ones dropped', { timeout: 300_000 }, async () => {
    const cache = srv.ctx.memories;
    assert.equal(cache.maxBytes, Math.floor(BUDGET_MB * 1024 * 1024));
    const minds: Mind[] = [];
    for (let i = 0; i < MINDS; i++) minds.push(await mind(500 + i));

    const first = new Map<string, Awaited<ReturnType<typeof answer>>>();
    const sizes = new Map<string, number>();
    for (const m of minds) {
      first.set(m.mindId, await answer(m));
      assert.ok(cache.heldBytes <= cache.maxBytes, `${cache.heldBytes} bytes counted, over the budget of ${cache.maxBytes}`);
      assert.ok(cache.heldSnapshotIds().includes(m.snapshotId), 'the mind just simulated is held');
      // Counted at its built size: the set alone is at least its memory's estimate.
      const built = await cache.memory([m.snapshotId]);
      sizes.set(m.mindId, built.bytes);
      assert.ok(built.bytes > 10_000 && built.bytes < cache.maxBytes, `a mind of ${built.bytes} bytes: the budget must hold a few`);
      assert.ok(cache.heldBytes >= built.bytes, `the cache counts ${cache.heldBytes} bytes, less than the ${built.bytes} of the set it holds`);
    }
    const held = minds.filter((m) => cache.heldSnapshotIds().includes(m.snapshotId));
    assert.ok(held.length >= 1 && held.length < MINDS, `${held.length} of ${MINDS} minds held: the budget must drop some`);
    assert.ok(!held.includes(minds[0] as Mind), 'the least recently used mind was dropped first');
    const heldTotal = held.reduce((sum, m) => sum + (sizes.get(m.mindId) ?? 0), 0);
    assert.ok(heldTotal <= cache.heldBytes && cache.heldBytes <= cache.maxBytes, `held sets of ${heldTotal} bytes, counted ${cache.heldBytes}`);

    // Again, in the same order: each mind was dropped before its turn, is built again and answers as before.
    for (const m of minds) {
      assert.ok(!cache.heldSnapshotIds().includes(m.snapshotId), 'dropped since its last simulate');
      assert.deepEqual(await answer(m), first.get(m.mindId), 'a mind built again answers as it did');
      assert.ok(cache.heldSnapshotIds().includes(m.snapshotId), 'held again once built');
      assert.ok(cache.heldBytes <= cache.maxBytes, `${cache.heldBytes} bytes counted, over the budget of ${cache.maxBytes}`);
    }
  });
});
