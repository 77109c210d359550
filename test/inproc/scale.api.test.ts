import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { S3BlobStore } from '../../src/store/blobs/s3.ts';
import { rawRequest } from '../../testkit/http.ts';
import { runAdmin } from '../../testkit/process.ts';
import { blobOf, failure, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { makeDocx, sampleInterview, teamsVtt, zoomVtt } from '../../testkit/fixtures.ts';
import { PG_SKIP, createDatabase, startS3, type TestDatabase, type TestS3 } from '../../testkit/scale.ts';

const s3Blobs = (s3: TestS3) =>
  new S3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });

/** A representative part of the API flow on PostgreSQL + S3 (the full suite runs on the embedded defaults), in-process; the operator CLI as a process. */
describe('the API on PostgreSQL and S3', { skip: PG_SKIP, concurrency: false }, () => {
  let db: TestDatabase;
  let s3: TestS3;
  let srv: Service;
  let sdk: TestSdk;
  let mindId: string;

  before(async () => {
    [db, s3] = await Promise.all([createDatabase(), startS3()]);
    srv = await startService({ DATABASE_URL: db.url, ...s3.env, MAX_UPLOAD_BYTES: String(200 * 1024) });
    sdk = srv.sdk();
    mindId = (await sdk.minds.create('Sam Okafor')).mind.id;
  });
  after(async () => {
    await srv?.close();
    await s3?.close();
    await db?.drop();
  });

  const snapshotOf = (artifactId: string) => sdk.snapshots.create(mindId, { artifactId });

  it('lists minds newest first with cursor pagination', async () => {
    for (const name of ['A', 'B', 'C']) {
      await sdk.minds.create(name);
      assert.equal(sdk.last?.status, 200);
    }
    const firstPage = async (cursor?: string) => {
      for await (const page of sdk.minds.list({ limit: 2, cursor }).pages()) return page;
      return [];
    };
    const first = await firstPage();
    assert.deepEqual(first.map((m) => m.name), ['C', 'B']);
    const next = /<([^>]+)>; rel="next"/.exec(sdk.last?.headers.get('link') ?? '')?.[1] ?? '';
    const cursor = new URL(next).searchParams.get('cursor') ?? '';
    const second = await firstPage(cursor);
    assert.deepEqual(second.map((m) => m.name), ['A', 'Sam Okafor']);
  });

  it('processes direct files and simulates from them', async () => {
    const docx = await sdk.snapshots.create(mindId, { file: blobOf(await makeDocx(sampleInterview())), fileName: 'i.docx' });
    assert.equal(sdk.last?.status, 200);
    const vtt = await sdk.snapshots.create(mindId, { file: blobOf(zoomVtt(sampleInterview())), fileName: 'z.vtt' });
    assert.equal(sdk.last?.status, 200);
    for (const r of [docx, vtt]) {
      const done = await waitFor(sdk, mindId, r.mindAssessmentId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
    }
    const sim = await sdk.simulate({ mindId, scenario: { message: 'How do you like your coffee?' } });
    assert.equal(sdk.last?.status, 200);
    assert.match(sim.analysis.saying, /coffee|cups|decaf|beans/i);
    assert.ok(sim.evidence.length > 0);
  });

  it("signed URLs are the service's own upload URLs, streamed to the bucket (once; the upload contract: uploads.contract.test.ts)", async () => {
    const body = await sdk.uploads.signedUrl(mindId, { fileName: 'talk.vtt' });
    assert.ok(body.signedUrl.startsWith(`${srv.baseUrl}/uploads/${body.artifactId}?`), body.signedUrl);
    const vtt = teamsVtt(sampleInterview());
    assert.equal((await fetch(body.signedUrl, { method: 'PUT', body: vtt, headers: { 'content-type': 'text/vtt' } })).status, 200);
    assert.equal((await fetch(body.signedUrl, { method: 'PUT', body: 'WEBVTT\n\n' })).status, 409);
    const snap = await snapshotOf(body.artifactId);
    assert.equal(sdk.last?.status, 200);
    const done = await waitFor(sdk, mindId, snap.mindAssessmentId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const blobs = s3Blobs(s3);
    try {
      assert.equal((await blobs.get(`artifacts/${mindId}/${body.artifactId}`)).toString(), vtt);
    } finally {
      blobs.close();
    }
  });

  it('413 when an upload is over MAX_UPLOAD_BYTES, and nothing is left in the bucket', async () => {
    const body = await sdk.uploads.signedUrl(mindId, { fileName: 'big.vtt' });
    const big = `WEBVTT\n\n${'00:00:01.000 --> 00:00:02.000\n<v Sam Okafor>words words words\n\n'.repeat(5000)}`;
    assert.ok(big.length > 200 * 1024);
    const r = await rawRequest(body.signedUrl, 'PUT', Buffer.from(big), { 'content-type': 'text/vtt' });
    assert.equal(r.status, 413);
    const blobs = s3Blobs(s3);
    try {
      assert.equal(await blobs.size(`artifacts/${mindId}/${body.artifactId}`), null);
    } finally {
      blobs.close();
    }
    assert.equal((await failure(snapshotOf(body.artifactId))).code, 'ARTIFACT_NOT_UPLOADED');
  });

  it('the operator CLI works on the same database', async () => {
    const r = await runAdmin(srv.env, 'create-account', '--email', 'ops@example.com', '--tier', 'standard');
    assert.equal(r.code, 0, r.stderr);
    const { apiKey } = JSON.parse(r.stdout) as { apiKey: string };
    const ops = srv.sdk(apiKey);
    await ops.minds.list().all();
    assert.equal(ops.last?.status, 200);
  });

  it('deleting a mind removes its objects from the bucket', async () => {
    const blobs = s3Blobs(s3);
    try {
      const snaps = await sdk.snapshots.list(mindId).all();
      const keys = snaps.map((s) => `artifacts/${mindId}/${s.artifactId}`);
      assert.ok((await blobs.size(keys[0] ?? '')) !== null);
      await sdk.minds.delete(mindId);
      assert.equal(sdk.last?.status, 204);
      for (const k of keys) assert.equal(await blobs.size(k), null, k);
    } finally {
      blobs.close();
    }
  });
});
