import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MindsimClient } from '@mindsim/sdk';
import { blobOf, failure, waitFor } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { longInterview, makePdf, sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

let srv: Service;
let sdk: MindsimClient;

before(async () => {
  srv = await startService({ STRICT_MODELS: 'true' });
  sdk = srv.sdk();
});
after(() => srv?.close());

async function mindWith(bytes: Buffer | string, fileName: string) {
  const { mind } = await sdk.minds.create('Sam Okafor');
  const r = await sdk.snapshots.create(mind.id, { file: blobOf(bytes), fileName });
  const status = await waitFor(sdk, mind.id, r.mindAssessmentId);
  assert.equal(status.status, 'completed', JSON.stringify(status));
  return { mindId: mind.id, snapshotId: r.mindAssessmentId, status };
}

describe('GET /minds/{mindId}/profile', () => {
  const interview = sampleInterview();
  const personText = interview.filter((t) => t.speaker === 'Sam Okafor').map((t) => t.text).join(' ');

  it("returns topics, stances, affect, behaviours, style and Q→A pairs, all evidenced by the person's own words", async () => {
    const { mindId, snapshotId } = await mindWith(await makePdf(interview, { qa: true }), 'qa.pdf');
    const p = await sdk.minds.profile(mindId);
    assert.equal(p.mindId, mindId);
    assert.deepEqual(p.snapshotIds, [snapshotId]);
    assert.ok(p.topics.length > 0);
    const evidence = [...p.topics.flatMap((t) => t.stances), ...p.behaviours.map((b) => b.evidence)];
    assert.ok(evidence.length > 0);
    for (const e of evidence) {
      assert.equal(e.snapshotId, snapshotId);
      assert.equal(typeof e.seq, 'number');
      assert.ok(typeof e.page === 'number' && e.page >= 1, 'PDF evidence carries its page');
      assert.ok(personText.includes(e.text.slice(0, 30)), `evidence is the person's text: ${e.text}`);
    }
    for (const t of p.topics) assert.ok(['positive', 'negative', 'neutral', 'mixed'].includes(t.affect.label));
    for (const t of p.topics) assert.doesNotMatch(t.label, /^(i'm|i|it|it's|you|we|don't|thing)$/i, 'topics are subjects');
    const passages = p.topics.flatMap((t) => t.passages);
    assert.ok(passages.length > 0, 'topics carry the passages behind them');
    for (const ps of passages) {
      assert.equal(ps.snapshotId, snapshotId);
      assert.ok(Number.isInteger(ps.firstSeq) && ps.lastSeq >= ps.firstSeq);
      assert.ok(typeof ps.page === 'number' && ps.page >= 1, 'a PDF passage carries the page of its first sentence');
      assert.ok(personText.includes(ps.text.slice(0, 30)), `a passage is the person's text: ${ps.text}`);
    }
    const kinds = p.behaviours.map((b) => b.kind);
    assert.ok(kinds.includes('always') && kinds.includes('never'), `stated behaviours: ${kinds}`);
    assert.match(p.behaviours.map((b) => b.evidence.text).join(' '), /I never merge a pull request without a test/);
    assert.ok(p.style.words > 300 && p.style.avgSentenceWords > 5);
    assert.equal(p.qaPairCount, 8);
    assert.match(p.qaPairs[1]?.question ?? '', /remotely or in an office\?/);
  });

  it('merges every completed snapshot and reports fidelity on the status', async () => {
    const { mindId, status } = await mindWith(teamsVtt(longInterview(3000)), 'long.vtt');
    assert.ok(status.fidelity, 'a snapshot with many Q/A pairs has a self-check');
    assert.ok(status.fidelity.pairs >= 8 && status.fidelity.heldOut > 0);
    for (const k of ['tokenF1', 'rougeL', 'baselineF1', 'contentF1', 'baselineContentF1'] as const) {
      const v = status.fidelity[k];
      assert.ok(v !== undefined && v >= 0 && v <= 1, k);
    }
    const second = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'second.vtt' });
    await waitFor(sdk, mindId, second.mindAssessmentId);
    const p = await sdk.minds.profile(mindId);
    assert.equal(p.snapshotIds.length, 2);
    assert.ok(p.qaPairCount > 8);
  });

  it('404 for an unknown mind or another account’s, 409 snapshot_not_ready before a completed snapshot', async () => {
    assert.equal((await failure(sdk.minds.profile('00000000-0000-4000-8000-000000000000'))).status, 404);
    const { mind } = await sdk.minds.create('Empty');
    const r = await failure(sdk.minds.profile(mind.id));
    assert.equal(r.status, 409);
    assert.equal(r.code, 'SNAPSHOT_NOT_READY');
    const other = await srv.admin.createAccount('other@example.com', 'pro');
    const r2 = await failure(srv.sdk(other.apiKey).minds.profile(mind.id));
    assert.equal(r2.status, 404);
  });
});

describe('STRICT_MODELS=true without an LLM', () => {
  it('400 model_unavailable for mind-reasoner-pro; standard still answers', async () => {
    const { mindId } = await mindWith(teamsVtt(sampleInterview()), 'strict.vtt');
    const pro = await failure(sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: 'Coffee?' } }));
    assert.equal(pro.status, 400);
    assert.equal(pro.code, 'MODEL_UNAVAILABLE');
    const std = await sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How much coffee do you drink?' } });
    assert.equal(std.model, 'mind-reasoner-standard');
  });
});
