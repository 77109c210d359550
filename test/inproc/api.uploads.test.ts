import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { client, rawRequest, type Client } from '../../testkit/http.ts';
import { failure, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { makePdf, sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { systemRuntime } from '../../src/kernel/runtime.ts';

/** Signed URLs through the typed SDK; the PUTs to them by hand, since they are what is tested. */
let srv: Service;
let sdk: TestSdk;
let api: Client;
let mindId: string;

before(async () => {
  // A URL lives a minute, far longer than any check that uses a fresh one takes; expiry is tested by moving the clock.
  srv = await startService({ SIGNED_URL_TTL_SECONDS: '60', MAX_UPLOAD_BYTES: String(3 * 1024 * 1024) });
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  mindId = (await sdk.minds.create('Sam Okafor')).mind.id;
});
after(() => srv?.close());

const put = (url: string, body: Buffer | string, contentType?: string) =>
  fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers: contentType ? { 'content-type': contentType } : {} });

const snapshotForm = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const fromArtifact = (artifactId: string, digitalTwinId?: string, mind = mindId) => sdk.snapshots.create(mind, { artifactId, digitalTwinId });

describe('signed URL upload', () => {
  it('accepts ?fileName=, ?contentType= or no query, and answers an absolute URL', async () => {
    const a = await sdk.uploads.signedUrl(mindId, { fileName: '../../etc/My Interview.VTT' });
    assert.equal(sdk.last?.status, 200);
    assert.equal(a.fileName, `${a.artifactId}.vtt`);
    assert.ok(a.signedUrl.startsWith(`${srv.baseUrl}/uploads/${a.artifactId}?`));
    assert.ok(Date.parse(a.expiresAt) > Date.now());
    const b = await sdk.uploads.signedUrl(mindId, { contentType: 'application/pdf' });
    assert.equal(b.fileName, `${b.artifactId}.pdf`);
    const c = await sdk.uploads.signedUrl(mindId);
    assert.equal(sdk.last?.status, 200);
    assert.equal(c.fileName, c.artifactId);
    assert.equal(await statusOf(sdk.uploads.signedUrl('00000000-0000-4000-8000-000000000000')), 404);
    assert.equal((await fetch(`${srv.api}/minds/${mindId}/signed-url`)).status, 401);
  });

  it('takes a PUT with any Content-Type and no Authorization, once; the snapshot completes', async () => {
    const body = await sdk.uploads.signedUrl(mindId, { fileName: 'talk.vtt' });
    const vtt = teamsVtt(sampleInterview());
    const up = await put(body.signedUrl, vtt, 'application/pdf'); // mismatched type on purpose
    assert.equal(up.status, 200);
    const again = await put(body.signedUrl, vtt, 'text/vtt');
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { code: string }).code, 'SIGNED_URL_USED');

    const snap = await fromArtifact(body.artifactId);
    assert.equal(sdk.last?.status, 200);
    assert.equal(snap.message, 'Mind assessment started');
    assert.equal(snap.artifactId, body.artifactId);
    const done = await waitFor(sdk, mindId, snap.mindAssessmentId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
  });

  it('uploads binary (PDF) bytes as octet-stream intact', async () => {
    const body = await sdk.uploads.signedUrl(mindId);
    const pdf = await makePdf(sampleInterview(), { qa: true });
    assert.equal((await put(body.signedUrl, pdf, 'application/octet-stream')).status, 200);
    const stored = fs.readFileSync(path.join(srv.dataDir, 'blobs', 'artifacts', mindId, body.artifactId));
    assert.ok(stored.equals(pdf));
    const snap = await fromArtifact(body.artifactId);
    assert.equal((await waitFor(sdk, mindId, snap.mindAssessmentId)).status, 'completed');
  });

  it('rejects tampered, unsigned and expired URLs with clear 4xx', async (t) => {
    const body = await sdk.uploads.signedUrl(mindId);
    const u = new URL(body.signedUrl);
    const sig = u.searchParams.get('signature') ?? '';
    const tampered = new URL(u);
    tampered.searchParams.set('signature', `${sig.slice(0, -2)}AA`);
    assert.equal((await put(tampered.toString(), 'WEBVTT\n')).status, 403);
    const longer = new URL(u);
    longer.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    const r = await put(longer.toString(), 'WEBVTT\n');
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { code: string }).code, 'INVALID_SIGNATURE');
    const other = await sdk.uploads.signedUrl(mindId);
    const swapped = body.signedUrl.replace(body.artifactId, other.artifactId);
    assert.equal((await put(swapped, 'WEBVTT\n')).status, 403);
    assert.equal((await put(`${srv.baseUrl}/uploads/${body.artifactId}`, 'WEBVTT\n')).status, 403);

    // Past its expiry without waiting for it: the service's clock (testkit's services run on systemRuntime) a second later.
    const expiresAt = Date.parse(body.expiresAt);
    t.mock.method(systemRuntime, 'now', () => new Date(expiresAt + 1000));
    const expired = await put(body.signedUrl, 'WEBVTT\n');
    assert.equal(expired.status, 410);
    assert.equal(((await expired.json()) as { code: string }).code, 'SIGNED_URL_EXPIRED');
  });

  it('answers 413 beyond the size limit and leaves no artifact behind', async () => {
    const body = await sdk.uploads.signedUrl(mindId);
    const tooBig = Buffer.alloc(3 * 1024 * 1024 + 1, 0x41);
    const r = await rawRequest(body.signedUrl, 'PUT', tooBig, { 'content-type': 'text/vtt' });
    assert.equal(r.status, 413);
    const snap = await failure(fromArtifact(body.artifactId));
    assert.equal(snap.status, 409);
    assert.equal(snap.code, 'ARTIFACT_NOT_UPLOADED');
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
    const body = await sdk.uploads.signedUrl(mindId);
    assert.equal(await statusOf(fromArtifact(body.artifactId)), 409);
    assert.equal(await statusOf(fromArtifact('00000000-0000-4000-8000-000000000000')), 404);
    await put(body.signedUrl, teamsVtt(sampleInterview()));
    const badTwin = await failure(fromArtifact(body.artifactId, '00000000-0000-4000-8000-000000000000'));
    assert.equal(badTwin.status, 404);
    assert.equal(badTwin.code, 'DIGITAL_TWIN_NOT_FOUND');
    const neither = await api.post(`/minds/${mindId}/snapshots`, snapshotForm({}));
    assert.equal(neither.status, 400);
    const both = new FormData();
    both.append('artifactId', body.artifactId);
    both.append('file', new Blob(['WEBVTT\n\n00:00.000 --> 00:01.000\nhello']), 'a.vtt');
    assert.equal((await api.post(`/minds/${mindId}/snapshots`, both)).status, 400);
    assert.equal(await statusOf(fromArtifact('nope')), 400);
    // another mind's artifact is not this mind's
    const other = await sdk.minds.create('Other');
    assert.equal(await statusOf(fromArtifact(body.artifactId, undefined, other.mind.id)), 404);
    const twin = (await sdk.minds.get(mindId)).digitalTwins[0]?.id ?? '';
    const ok = await fromArtifact(body.artifactId, twin);
    assert.equal(sdk.last?.status, 200);
    const status = await waitFor(sdk, mindId, ok.mindAssessmentId);
    assert.equal(status.digitalTwinId, twin);
  });

  it('an uploaded file that is not a transcript ends failed with unsupported_file_type', async () => {
    const body = await sdk.uploads.signedUrl(mindId, { fileName: 'x.vtt' });
    await put(body.signedUrl, Buffer.from('PK\x03\x04 this is not really a docx, nor anything else'), 'text/vtt');
    const snap = await fromArtifact(body.artifactId);
    assert.equal(sdk.last?.status, 200);
    const done = await waitFor(sdk, mindId, snap.mindAssessmentId);
    assert.equal(done.status, 'failed');
    assert.equal(done.error?.code, 'unsupported_file_type');
    assert.ok(done.completedAt);
  });
});
