/**
 * A snapshot's passages are embedded once, when it is processed, and stored with it: another
 * process on the same data (a restart, with no worker that could embed anything) answers from the
 * stored vectors, and the stored row is left as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rankingParams } from '../../src/memory/params/params.ts';
import { sampleInterview, zoomVtt } from '../../testkit/fixtures.ts';
import { blobOf, waitFor } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';

let first: Service;
let restarted: Service | null = null;
let third: Service | null = null;

before(async () => {
  first = await startService({ LOG_LEVEL: 'silent' });
});
after(async () => {
  await third?.close();
  await restarted?.close();
  await first?.close();
});

describe('stored passage vectors', () => {
  it('survive a restart and are not computed again', async () => {
    const sdk = first.sdk();
    const { mind } = await sdk.minds.create('Sam Okafor');
    const created = await sdk.snapshots.create(mind.id, { file: blobOf(zoomVtt(sampleInterview())), fileName: 'z.vtt' });
    const done = await waitFor(sdk, mind.id, created.mindAssessmentId);
    assert.equal(done.status, 'completed');
    const row = async (svc: Service) => svc.ctx.store.db.selectFrom('snapshot_passages').selectAll().where('snapshot_id', '=', done.id).executeTakeFirstOrThrow();
    const stored = await row(first);
    assert.equal(stored.encoder, rankingParams().encoder);
    const count = stored.scales.byteLength / 4;
    assert.ok(count > 0);
    assert.equal(stored.vectors.byteLength, count * stored.dimensions, 'one byte per dimension (int8)');

    // A second process on the same data, without a worker: nothing in it can embed a passage.
    restarted = await startService({ DATA_DIR: first.dataDir, RUN_WORKER: 'false', LOG_LEVEL: 'silent' });
    const again = restarted.sdk(first.apiKey);
    const answer = await again.simulate({
      mindId: mind.id,
      scenario: { message: 'I manage a dental practice and my receptionists asked to answer the phones from home three days a week. Should I agree?' },
    });
    assert.equal(again.last?.status, 200);
    assert.match(answer.evidence?.[0]?.text ?? '', /Remote, without question|worked from home/);
    const memory = await restarted.ctx.memories.memory([done.id]);
    assert.equal(memory.passages?.size, count, 'the stored vectors, all of them');
    assert.deepEqual(await row(restarted), stored, 'the stored row is unchanged');

    // A snapshot without vectors (processed before they were stored) gets them on its first use, once.
    await restarted.ctx.store.db.deleteFrom('snapshot_passages').where('snapshot_id', '=', done.id).execute();
    third = await startService({ DATA_DIR: first.dataDir, RUN_WORKER: 'false', LOG_LEVEL: 'silent' });
    const backfilled = await third.sdk(first.apiKey).simulate({ mindId: mind.id, scenario: { message: 'Our bakery staff want to work from home. Would you allow it?' } });
    assert.match(backfilled.evidence?.[0]?.text ?? '', /Remote, without question|worked from home/);
    const filled = await row(third);
    assert.deepEqual([filled.encoder, filled.vectors.byteLength, filled.spans], [stored.encoder, stored.vectors.byteLength, stored.spans]);
  });
});
