import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { S3BlobStore } from '../src/store/blobs/s3.ts';
import { client, fileForm, rawRequest, startServer, waitForSnapshot, type Client, type TestServer } from './support/server.ts';
import { makeDocx, sampleInterview, teamsVtt, zoomVtt } from './support/fixtures.ts';
import { PG_SKIP, createDatabase, startS3, type TestDatabase, type TestS3 } from './support/scale.ts';

const s3Blobs = (s3: TestS3) =>
  new S3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });

/** A representative part of the API flow on PostgreSQL + S3 (the full suite runs on the embedded defaults). */
describe('the API on PostgreSQL and S3', { skip: PG_SKIP, concurrency: false }, () => {
  let db: TestDatabase;
  let s3: TestS3;
  let srv: TestServer;
  let api: Client;
  let mindId: string;

  before(async () => {
    [db, s3] = await Promise.all([createDatabase(), startS3()]);
    srv = await startServer({ DATABASE_URL: db.url, ...s3.env, MAX_UPLOAD_BYTES: String(200 * 1024) });
    api = client(srv.api, srv.apiKey);
    mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id;
  });
  after(async () => {
    await srv?.stop();
    await s3?.close();
    await db?.drop();
  });

  const snapshotOf = (artifactId: string) => {
    const f = new FormData();
    f.append('artifactId', artifactId);
    return api.post(`/minds/${mindId}/snapshots`, f);
  };

  it('lists minds newest first with cursor pagination', async () => {
    for (const name of ['A', 'B', 'C']) assert.equal((await api.post('/minds', { name })).status, 200);
    const first = await api.get('/minds?limit=2');
    assert.deepEqual(first.body.map((m: { name: string }) => m.name), ['C', 'B']);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
    const cursor = new URL(next).searchParams.get('cursor') ?? '';
    const second = await api.get(`/minds?limit=2&cursor=${encodeURIComponent(cursor)}`);
    assert.deepEqual(second.body.map((m: { name: string }) => m.name), ['A', 'Sam Okafor']);
  });

  it('processes direct files and simulates from them', async () => {
    const docx = await api.post(`/minds/${mindId}/snapshots`, fileForm(await makeDocx(sampleInterview()), 'i.docx'));
    const vtt = await api.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
    for (const r of [docx, vtt]) {
      assert.equal(r.status, 200);
      const done = await waitForSnapshot(api, mindId, r.body.mindAssessmentId);
      assert.equal(done.status, 'completed', JSON.stringify(done));
    }
    const sim = await api.post('/simulate', { mindId, scenario: { message: 'How do you like your coffee?' } });
    assert.equal(sim.status, 200);
    assert.match(sim.body.analysis.saying, /coffee|cups|decaf|beans/i);
    assert.ok(sim.body.evidence.length > 0);
  });

  it("signed URLs are the service's own upload URLs, streamed to the bucket (once; the upload contract: uploads.contract.test.ts)", async () => {
    const { body } = (await api.get(`/minds/${mindId}/signed-url?fileName=talk.vtt`)) as { body: { signedUrl: string; artifactId: string } };
    assert.ok(body.signedUrl.startsWith(`${srv.baseUrl}/uploads/${body.artifactId}?`), body.signedUrl);
    const vtt = teamsVtt(sampleInterview());
    assert.equal((await fetch(body.signedUrl, { method: 'PUT', body: vtt, headers: { 'content-type': 'text/vtt' } })).status, 200);
    assert.equal((await fetch(body.signedUrl, { method: 'PUT', body: 'WEBVTT\n\n' })).status, 409);
    const snap = await snapshotOf(body.artifactId);
    assert.equal(snap.status, 200);
    const done = await waitForSnapshot(api, mindId, snap.body.mindAssessmentId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const blobs = s3Blobs(s3);
    try {
      assert.equal((await blobs.get(`artifacts/${mindId}/${body.artifactId}`)).toString(), vtt);
    } finally {
      blobs.close();
    }
  });

  it('413 when an upload is over MAX_UPLOAD_BYTES, and nothing is left in the bucket', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url?fileName=big.vtt`);
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
    assert.equal((await snapshotOf(body.artifactId)).body.error.code, 'artifact_not_uploaded');
  });

  it('the operator CLI works on the same database', async () => {
    const r = await srv.admin('create-account', '--email', 'ops@example.com', '--tier', 'standard');
    assert.equal(r.code, 0, r.stderr);
    const { apiKey } = JSON.parse(r.stdout) as { apiKey: string };
    assert.equal((await client(srv.api, apiKey).get('/minds')).status, 200);
  });

  it('deleting a mind removes its objects from the bucket', async () => {
    const blobs = s3Blobs(s3);
    try {
      const snaps = (await api.get(`/minds/${mindId}/snapshots`)).body as Array<{ artifactId: string }>;
      const keys = snaps.map((s) => `artifacts/${mindId}/${s.artifactId}`);
      assert.ok((await blobs.size(keys[0] ?? '')) !== null);
      assert.equal((await api.del(`/minds/${mindId}`)).status, 204);
      for (const k of keys) assert.equal(await blobs.size(k), null, k);
    } finally {
      blobs.close();
    }
  });
});
