/**
 * A self-hoster's first minutes, through a real process: start the service, create a mind, upload
 * a transcript through a signed URL, wait for the snapshot, simulate. Part of the suite, and run
 * alone by .ci/run on Node.js 22 (the older supported runtime) before the whole suite on Node 24.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { blobOf, testSdk, waitFor } from '../testkit/sdk.ts';

let srv: TestServer;
before(async () => {
  srv = await startServer();
});
after(() => srv?.stop());

it(`starts, creates a mind, takes an upload, completes its snapshot and simulates (Node ${process.version})`, async () => {
  const sdk = testSdk(srv.baseUrl, srv.apiKey);
  const { mind } = await sdk.minds.create('Sam Okafor');
  const up = await sdk.uploads.upload(mind.id, blobOf(teamsVtt(sampleInterview()), 'text/vtt'), { fileName: 'interview.vtt' });
  const started = await sdk.snapshots.create(mind.id, { artifactId: up.artifactId });
  const done = await waitFor(sdk, mind.id, started.mindAssessmentId, 60_000);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  const sim = await sdk.simulate({ mindId: mind.id, scenario: { message: 'Would you go back to an office full time?' } });
  assert.equal(sim.model, 'mind-reasoner-standard');
  assert.ok(sim.evidence.length > 0, 'the answer comes with evidence');
  assert.deepEqual(sim.snapshotIds, [started.mindAssessmentId]);
});
