import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { z } from 'zod';
import {
  CreateMindResponse,
  ErrorBody,
  Mind,
  MindDetail,
  MindProfile,
  ModelsResponse,
  SignedUrlResponse,
  SimulateResponse,
  SnapshotStatus,
  StartedAssessment,
  UploadResponse,
  WebhookEvent,
  WebhookReceived,
} from '../../src/http/schemas.ts';
import { MindsList } from '../../src/http/schemas/minds.ts';
import { Deleted, Linked, Psychometrics, SnapshotDetails, SnapshotList, Topics, TwinAnswer, TwinList, Unlinked } from '../../src/http/schemas/snapshots.ts';
import { client, fileForm, waitForSnapshot, type Reply } from '../../testkit/http.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt, zoomVtt } from '../../testkit/fixtures.ts';

/**
 * Responses are written from the schemas without a zod check on the way out (src/http/serializer.ts),
 * so this walk checks every kind of response body against its schema: valid, and nothing more.
 * Raw HTTP on purpose: the bodies are checked as they are sent, not as the SDK reads them.
 */
let srv: Service;
before(async () => {
  srv = await startService();
});
after(() => srv?.close());

function conforms(schema: z.ZodType, r: Reply, status = 200): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  const parsed = schema.safeParse(r.body);
  assert.ok(parsed.success, `${JSON.stringify(r.body).slice(0, 300)}: ${parsed.error?.message}`);
  assert.deepEqual(parsed.data, r.body, 'no field beyond the schema');
}

it('every response body matches its documented schema exactly', async () => {
  const api = client(srv.api, srv.apiKey);
  const created = await api.post('/minds', { name: 'Sam Okafor' });
  conforms(CreateMindResponse, created);
  const mindId = created.body.mind.id as string;
  conforms(MindsList, await api.get('/minds'));
  conforms(MindDetail, await api.get(`/minds/${mindId}`));
  conforms(Mind, await api.patch(`/minds/${mindId}`, { name: 'Sam O.' }));

  const signed = await api.get(`/minds/${mindId}/signed-url?fileName=i.vtt`);
  conforms(SignedUrlResponse, signed);
  const put = await fetch(signed.body.signedUrl as string, { method: 'PUT', body: teamsVtt(sampleInterview()) });
  conforms(UploadResponse, { status: put.status, headers: put.headers, body: await put.json() });
  const fromArtifact = new FormData();
  fromArtifact.append('artifactId', signed.body.artifactId as string);
  conforms(StartedAssessment, await api.post(`/minds/${mindId}/snapshots`, fromArtifact));
  const started = await api.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(sampleInterview()), 'z.vtt'));
  conforms(StartedAssessment, started);
  const id = started.body.mindAssessmentId as string;
  await waitForSnapshot(api, mindId, id);
  for (let i = 0; i < 2; i++) conforms(SnapshotStatus, await api.get(`/minds/${mindId}/snapshots/${id}/status`)); // read, then from memory
  conforms(SnapshotList, await api.get(`/minds/${mindId}/snapshots`));
  conforms(MindProfile, await api.get(`/minds/${mindId}/profile`));
  conforms(SimulateResponse, await api.post('/simulate', { mindId, scenario: { message: 'How do you like your coffee?' } }));
  conforms(ModelsResponse, await api.get('/models'));
  conforms(SnapshotDetails, await api.get(`/minds/${mindId}/snapshots/${id}`));
  conforms(SnapshotDetails, await api.get(`/minds/${mindId}/snapshots/${id}?includeTranscript=false&includePsychometrics=false`));
  conforms(Psychometrics, await api.get(`/minds/${mindId}/snapshots/${id}/psychometrics`));
  conforms(Topics, await api.get(`/minds/${mindId}/snapshots/${id}/topics`));
  conforms(Psychometrics, await api.get(`/minds/${mindId}/psychometrics`));
  conforms(Topics, await api.get(`/minds/${mindId}/topics`));
  const twin = await api.post(`/minds/${mindId}/digital-twins`, { name: 'Second' });
  conforms(TwinAnswer, twin);
  conforms(TwinAnswer, await api.patch(`/minds/${mindId}/digital-twins/${twin.body.digitalTwin.id as string}`, { name: 'Third' }));
  conforms(TwinList, await api.get(`/minds/${mindId}/digital-twins`));
  conforms(Linked, await api.post(`/minds/${mindId}/snapshots/${id}/link`, { digitalTwinId: twin.body.digitalTwin.id }));
  conforms(Unlinked, await api.post(`/minds/${mindId}/snapshots/${id}/unlink`));

  const w = await srv.admin.createWebhookCredentials(srv.ownerAccountId);
  const hook = await fetch(w.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${w.username}:${w.password}`).toString('base64')}` },
    body: JSON.stringify({ event: 'call.ended', data: { seconds: 12, tags: ['a', null] } }),
  });
  conforms(WebhookReceived, { status: hook.status, headers: hook.headers, body: await hook.json() });
  conforms(z.array(WebhookEvent), await api.get('/webhook-events'));

  // Errors: validation (with details), unknown ids, a failed snapshot's status, no key.
  conforms(ErrorBody, await api.post('/minds', { name: 7 }), 400);
  conforms(ErrorBody, await api.get('/minds/0b7d8f3e-4d2c-4e61-9a52-6f1f0f1d2a3b'), 404);
  conforms(ErrorBody, await client(srv.api, 'msk_nope').get('/minds'), 401);
  const bad = await api.post(`/minds/${mindId}/snapshots`, fileForm('not a transcript', 'x.vtt'));
  conforms(ErrorBody, bad, 400);
  const badArtifact = await api.get(`/minds/${mindId}/signed-url?fileName=x.bin`);
  await fetch(badArtifact.body.signedUrl as string, { method: 'PUT', body: 'plain words, no transcript' });
  const f = new FormData();
  f.append('artifactId', badArtifact.body.artifactId as string);
  const failing = await api.post(`/minds/${mindId}/snapshots`, f);
  const done = await waitForSnapshot(api, mindId, failing.body.mindAssessmentId as string);
  assert.equal(done.status, 'failed');
  for (let i = 0; i < 2; i++) conforms(SnapshotStatus, await api.get(`/minds/${mindId}/snapshots/${done.id as string}/status`));
  conforms(SnapshotDetails, await api.get(`/minds/${mindId}/snapshots/${done.id as string}`));
  conforms(ErrorBody, await api.get(`/minds/${mindId}/snapshots/${done.id as string}/psychometrics`), 409);
  conforms(Deleted, await api.del(`/minds/${mindId}/snapshots/${done.id as string}`));
});
