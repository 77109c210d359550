import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { client, rawRequest, startServer, waitForSnapshot, type Client, type TestServer } from './support/server.ts';
import { makePdf, sampleInterview, teamsVtt } from './support/fixtures.ts';

let srv: TestServer;
let api: Client;
let mindId: string;

before(async () => {
  srv = await startServer({ SIGNED_URL_TTL_SECONDS: '2', MAX_UPLOAD_BYTES: String(3 * 1024 * 1024) });
  api = client(srv.api, srv.apiKey);
  mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id;
});
after(() => srv.stop());

const put = (url: string, body: Buffer | string, contentType?: string) =>
  fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: contentType ? { 'content-type': contentType } : {} });

const snapshotForm = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe('signed URL upload', () => {
  it('accepts ?fileName=, ?contentType= or no query, and answers an absolute URL', async () => {
    const a = await api.get(`/minds/${mindId}/signed-url?fileName=${encodeURIComponent('../../etc/My Interview.VTT')}`);
    assert.equal(a.status, 200);
    assert.equal(a.body.fileName, `${a.body.artifactId}.vtt`);
    assert.ok(a.body.signedUrl.startsWith(`${srv.baseUrl}/uploads/${a.body.artifactId}?`));
    assert.ok(Date.parse(a.body.expiresAt) > Date.now());
    const b = await api.get(`/minds/${mindId}/signed-url?contentType=application/pdf`);
    assert.equal(b.body.fileName, `${b.body.artifactId}.pdf`);
    const c = await api.get(`/minds/${mindId}/signed-url`);
    assert.equal(c.status, 200);
    assert.equal(c.body.fileName, c.body.artifactId);
    assert.equal((await api.get(`/minds/00000000-0000-4000-8000-000000000000/signed-url`)).status, 404);
    assert.equal((await fetch(`${srv.api}/minds/${mindId}/signed-url`)).status, 401);
  });

  it('takes a PUT with any Content-Type and no Authorization, once; the snapshot completes', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url?fileName=talk.vtt`);
    const vtt = teamsVtt(sampleInterview());
    const up = await put(body.signedUrl, vtt, 'application/pdf'); // mismatched type on purpose
    assert.equal(up.status, 200);
    const again = await put(body.signedUrl, vtt, 'text/vtt');
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'signed_url_used');

    const snap = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId }));
    assert.equal(snap.status, 200);
    assert.equal(snap.body.message, 'Mind assessment started');
    assert.equal(snap.body.artifactId, body.artifactId);
    const done = await waitForSnapshot(api, mindId, snap.body.mindAssessmentId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
  });

  it('uploads binary (PDF) bytes as octet-stream intact', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url`);
    const pdf = await makePdf(sampleInterview(), { qa: true });
    assert.equal((await put(body.signedUrl, pdf, 'application/octet-stream')).status, 200);
    const stored = fs.readFileSync(path.join(srv.dataDir, 'blobs', 'artifacts', mindId, body.artifactId));
    assert.ok(stored.equals(pdf));
    const snap = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId }));
    assert.equal((await waitForSnapshot(api, mindId, snap.body.mindAssessmentId)).status, 'completed');
  });

  it('rejects tampered, unsigned and expired URLs with clear 4xx', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url`);
    const u = new URL(body.signedUrl);
    const sig = u.searchParams.get('signature') ?? '';
    const tampered = new URL(u);
    tampered.searchParams.set('signature', `${sig.slice(0, -2)}AA`);
    assert.equal((await put(tampered.toString(), 'WEBVTT\n')).status, 403);
    const longer = new URL(u);
    longer.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    const r = await put(longer.toString(), 'WEBVTT\n');
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    const other = await api.get(`/minds/${mindId}/signed-url`);
    const swapped = body.signedUrl.replace(body.artifactId, other.body.artifactId);
    assert.equal((await put(swapped, 'WEBVTT\n')).status, 403);
    assert.equal((await put(`${srv.baseUrl}/uploads/${body.artifactId}`, 'WEBVTT\n')).status, 403);

    await new Promise((res) => setTimeout(res, 3100));
    const expired = await put(body.signedUrl, 'WEBVTT\n');
    assert.equal(expired.status, 410);
    assert.equal(((await expired.json()) as { error: { code: string } }).error.code, 'signed_url_expired');
  });

  it('answers 413 beyond the size limit and leaves no artifact behind', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url`);
    const tooBig = Buffer.alloc(3 * 1024 * 1024 + 1, 0x41);
    const r = await rawRequest(body.signedUrl, 'PUT', tooBig, { 'content-type': 'text/vtt' });
    assert.equal(r.status, 413);
    const snap = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId }));
    assert.equal(snap.status, 409);
    assert.equal(snap.body.error.code, 'artifact_not_uploaded');
    // chunked (no Content-Length): stopped while streaming
    const streamed = await fetch(body.signedUrl, {
      method: 'PUT',
      body: new ReadableStream({
        start(ctrl) {
          for (let i = 0; i < 4; i++) ctrl.enqueue(new Uint8Array(1024 * 1024));
          ctrl.close();
        },
      }),
      duplex: 'half',
    } as RequestInit).catch(() => null);
    if (streamed) assert.equal(streamed.status, 413);
    const tmp = path.join(srv.dataDir, 'blobs', '.tmp');
    assert.deepEqual(fs.readdirSync(tmp), [], 'no partial file is left');
    // the URL still works for a proper upload until it expires
    assert.equal((await put(body.signedUrl, teamsVtt(sampleInterview()))).status, 200);
  });
});

describe('snapshot from an artifact', () => {
  it('409 before upload, 404 for unknown artifact or twin, 400 for neither or both', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url`);
    const notYet = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId }));
    assert.equal(notYet.status, 409);
    const unknown = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: '00000000-0000-4000-8000-000000000000' }));
    assert.equal(unknown.status, 404);
    await put(body.signedUrl, teamsVtt(sampleInterview()));
    const badTwin = await api.post(
      `/minds/${mindId}/snapshots`,
      snapshotForm({ artifactId: body.artifactId, digitalTwinId: '00000000-0000-4000-8000-000000000000' }),
    );
    assert.equal(badTwin.status, 404);
    assert.equal(badTwin.body.error.code, 'digital_twin_not_found');
    const neither = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({}));
    assert.equal(neither.status, 400);
    const both = new FormData();
    both.append('artifactId', body.artifactId);
    both.append('file', new Blob(['WEBVTT\n\n00:00.000 --> 00:01.000\nhello']), 'a.vtt');
    assert.equal((await api.post(`/minds/${mindId}/snapshots`, both)).status, 400);
    const badId = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: 'nope' }));
    assert.equal(badId.status, 400);
    // another mind's artifact is not this mind's
    const other = (await api.post('/minds', { name: 'Other' })).body;
    assert.equal((await api.post(`/minds/${other.mind.id}/snapshots`, snapshotForm({ artifactId: body.artifactId }))).status, 404);
    const twin = (await api.get(`/minds/${mindId}`)).body.digitalTwins[0].id as string;
    const ok = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId, digitalTwinId: twin }));
    assert.equal(ok.status, 200);
    const status = await waitForSnapshot(api, mindId, ok.body.mindAssessmentId);
    assert.equal(status.digitalTwinId, twin);
  });

  it('an uploaded file that is not a transcript ends failed with unsupported_file_type', async () => {
    const { body } = await api.get(`/minds/${mindId}/signed-url?fileName=x.vtt`);
    await put(body.signedUrl, Buffer.from('PK\x03\x04 this is not really a docx, nor anything else'), 'text/vtt');
    const snap = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({ artifactId: body.artifactId }));
    assert.equal(snap.status, 200);
    const done = await waitForSnapshot(api, mindId, snap.body.mindAssessmentId);
    assert.equal(done.status, 'failed');
    assert.equal(done.error.code, 'unsupported_file_type');
    assert.ok(done.completedAt);
  });
});
