/**
 * A background turn and a panel unit check the consent again when a worker takes them, not only when queued:
 * queued under a consent that covers it, then the clock moved past the consent's expiry, the turn
 * fails with consent_required when it runs; a turn queued and run within the consent completes.
 * The service's clock is the test's (testkit `rt`); the worker is started and stopped by the test.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { systemRuntime, type Runtime } from '../../src/kernel/runtime.ts';
import type { Worker } from '../../src/jobs/worker.ts';
import { blobOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { type GrantedConsent } from '../../testkit/consent.ts';
import { client, type Client } from '../../testkit/http.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { waitUntil } from '../../testkit/wait.ts';

const DAY = 24 * 3600_000;
const clock = { offsetMs: 0 };
const rt: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + clock.offsetMs) };

let srv: Service;
let sdk: TestSdk;
let api: Client;
let mindId: string;

/** Runs a worker of the service until `done` holds (a state, polled), then stops it. */
async function withWorker(done: () => Promise<boolean>): Promise<void> {
  const worker: Worker = srv.ctx.createWorker();
  worker.start();
  try {
    await waitUntil(done, { what: 'the worker done', timeoutMs: 60_000 });
  } finally {
    await worker.stop();
  }
}

const statusOf = async (id: string) => (await api.get(`/simulations/${id}`)).body as { simulation: { status: string; error?: { code: string } | null } };

before(async () => {
  srv = await startService({ RUN_WORKER: 'false', WORKER_POLL_MS: '20' }, { rt });
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  assert.equal((await api.put('/account/privacy', { requireConsent: true })).status, 200);
  const expiresAt = new Date(rt.now().getTime() + DAY).toISOString();
  const consent: GrantedConsent = { status: 'granted', subject: 'Sam Okafor', obtainedAt: '2026-01-05', method: 'written', scope: ['simulate'], expiresAt };
  mindId = (await sdk.minds.create({ name: 'Sam Okafor', consent })).mind.id;
  const snap = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' });
  await withWorker(async () => (await sdk.snapshots.status(mindId, snap.mindAssessmentId)).status === 'completed');
  assert.equal((await waitFor(sdk, mindId, snap.mindAssessmentId)).status, 'completed');
});

after(async () => {
  clock.offsetMs = 0;
  await srv?.close();
});

it('a turn queued within the consent and run within it completes', async () => {
  const queued = await api.post('/simulate', { mindId, scenario: { message: 'How do you take your coffee?' }, runInBackground: true });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  await withWorker(async () => ['completed', 'failed'].includes((await statusOf(queued.body.simulationId)).simulation.status));
  assert.equal((await statusOf(queued.body.simulationId)).simulation.status, 'completed');
});

it('a turn queued within the consent and run after it expired fails with consent_required, and nothing is answered', async () => {
  const queued = await api.post('/simulate', { mindId, scenario: { message: 'What do you look for when you hire?' }, runInBackground: true });
  assert.equal(queued.status, 200, JSON.stringify(queued.body));
  assert.equal((await statusOf(queued.body.simulationId)).simulation.status, 'queued');
  const mind = await sdk.minds.get(mindId);
  assert.equal(srv.ctx.services.minds.consentExpired(mind), false, "the dashboard's label reads the service's clock");
  clock.offsetMs = 2 * DAY;
  assert.equal(srv.ctx.services.minds.consentExpired(mind), true);
  await withWorker(async () => ['completed', 'failed'].includes((await statusOf(queued.body.simulationId)).simulation.status));
  const after = await api.get(`/simulations/${queued.body.simulationId}`);
  assert.equal(after.body.simulation.status, 'failed');
  assert.equal(after.body.simulation.error?.code, 'consent_required');
  assert.equal(after.body.messages.filter((m: { role: string }) => m.role === 'assistant').length, 0);
  const now = await api.post('/simulate', { mindId, scenario: { message: 'Hello?' } });
  assert.equal(now.status, 403);
  assert.equal(now.body.code, 'CONSENT_REQUIRED');
});

it("a panel made within a mind's consent whose unit runs after it expired: the unit fails, no answer is stored", async () => {
  const expiresAt = new Date(rt.now().getTime() + DAY).toISOString();
  const consent: GrantedConsent = { status: 'granted', subject: 'Ana Lima', obtainedAt: '2026-01-05', method: 'written', scope: ['simulate', 'panels'], expiresAt };
  const id = (await sdk.minds.create({ name: 'Ana Lima', consent })).mind.id;
  const snap = await sdk.snapshots.create(id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' });
  await withWorker(async () => (await sdk.snapshots.status(id, snap.mindAssessmentId)).status === 'completed');
  const made = await api.post('/panels', { mindIds: [id], questions: [{ text: 'How do you deal with burnout?', type: 'open' }] });
  assert.equal(made.status, 202, JSON.stringify(made.body));
  clock.offsetMs += 2 * DAY;
  const panelOf = async () => (await api.get(`/panels/${made.body.panel.id}`)).body.panel as { status: string; mindsFailed: number; mindsAnswered?: number };
  await withWorker(async () => ['completed', 'failed'].includes((await panelOf()).status));
  const panel = await panelOf();
  assert.equal(panel.status, 'failed', JSON.stringify(panel));
  assert.equal(panel.mindsFailed, 1);
  const answers = await api.get(`/panels/${made.body.panel.id}/answers`);
  assert.equal(answers.status, 200);
  assert.equal(answers.body.answers.length, 0);
});
