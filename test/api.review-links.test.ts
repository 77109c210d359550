import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemRuntime, type Runtime } from '../src/kernel/runtime.ts';
import { client, fileForm, waitForSnapshot, type Client } from '../testkit/http.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startService, type Service } from '../testkit/service.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../testkit/scale.ts';
import { WebClient } from './support/web.ts';

/**
 * Review links (issue 32, item 5) through real HTTP and storage: the account makes a link for one
 * mind (its URL shown once, only a hash stored); the person opens it without an account, reads that
 * mind's recent answers and nothing else of the account, confirms one and corrects another (a
 * correction of the mind by `review-link:<id>`, in the access log under that actor). An unknown
 * token is 404, an expired one (the service's clock moved) and a revoked one 410, each a page a
 * person can read; another account can neither list nor revoke the links. The repository's queries
 * also on PostgreSQL (TEST_DATABASE_URL).
 */
const DAY = 86_400_000;
const clock = { offsetMs: 0 };
const rt: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + clock.offsetMs) };

let srv: Service;
let api: Client;
let other: Client;
let mindId: string;
let otherMindId: string;
let simulationId: string;
let secondSimulationId: string;
let otherSimulationId: string;

const QUESTION = 'How do you start a working day?';
const SECOND = 'What do you do when a project loses its funding?';
const HIDDEN = 'What is the secret plan for the other mind?';

async function mindWithTranscript(name: string): Promise<string> {
  const created = await api.post('/minds', { name });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.mind.id as string;
  const up = await api.post(`/minds/${id}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await waitForSnapshot(api, id, up.body.mindAssessmentId);
  return id;
}

async function simulate(mind: string, message: string): Promise<string> {
  const r = await api.post('/simulate', { mindId: mind, scenario: { message } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.simulationId as string;
}

const tokenOf = (url: string) => new URL(url).pathname.replace('/review/', '');

async function makeLink(mind: string, body: Record<string, unknown> = {}) {
  const r = await api.post(`/minds/${mind}/review-links`, body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body as { reviewLink: { id: string; status: string; expiresAt: string }; url: string };
}

const auditOf = async (mind: string) => {
  const r = await api.get(`/audit?mindId=${mind}&limit=200`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.entries as Array<{ actor: string; action: string; resourceId: string | null }>;
};

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', RETENTION_INTERVAL_MS: String(3600_000) }, { rt });
  api = client(srv.api, srv.apiKey);
  other = client(srv.api, (await srv.admin.createAccount('review-other@example.com', 'pro')).apiKey);
  [mindId, otherMindId] = await Promise.all([mindWithTranscript('Ada Review'), mindWithTranscript('Hidden Mind')]);
  simulationId = await simulate(mindId, QUESTION);
  secondSimulationId = await simulate(mindId, SECOND);
  otherSimulationId = await simulate(otherMindId, HIDDEN);
});
after(() => srv?.close());

describe('review links', () => {
  it('are made with a URL shown once, listed without their token, and stored only as a hash', async () => {
    const made = await makeLink(mindId, { expiresInDays: 3 });
    assert.equal(made.reviewLink.status, 'active');
    assert.match(made.url, new RegExp(`^${srv.baseUrl}/review/[A-Za-z0-9_-]{43}$`));
    assert.ok(Math.abs(Date.parse(made.reviewLink.expiresAt) - (Date.now() + 3 * DAY)) < 60_000);
    const list = await api.get(`/minds/${mindId}/review-links`);
    assert.equal(list.status, 200);
    assert.ok(list.body.reviewLinks.some((l: { id: string }) => l.id === made.reviewLink.id));
    assert.ok(!JSON.stringify(list.body).includes(tokenOf(made.url)), 'the list never shows the token');
    const rows = await srv.ctx.store.repos.reviewLinks.ofMind(srv.ownerAccountId, mindId, 100);
    assert.ok(!JSON.stringify(rows).includes(tokenOf(made.url)), 'only the hash is stored');
    for (const bad of [{ expiresInDays: 0 }, { expiresInDays: 91 }, { expiresInDays: 1.5 }, { expiresInDays: 'soon' }]) {
      assert.equal((await api.post(`/minds/${mindId}/review-links`, bad)).status, 400, JSON.stringify(bad));
    }
  });

  it("shows the person that mind's answers and nothing else of the account; they confirm and correct them as review-link:<id>", async () => {
    const { reviewLink, url } = await makeLink(mindId);
    const person = new WebClient(srv.baseUrl);
    const path = `/review/${tokenOf(url)}`;
    const page = await person.get(path);
    assert.equal(page.status, 200, page.text.slice(0, 500));
    assert.ok(page.text.includes(QUESTION) && page.text.includes(SECOND), 'the recent answers are shown');
    assert.ok(page.text.includes('Ada Review'));
    for (const hidden of [HIDDEN, 'Hidden Mind', otherSimulationId, srv.ownerAccountId, '/keys', 'Log out']) assert.ok(!page.text.includes(hidden), `the page shows ${hidden}`);

    const confirmed = await person.submit(`${path}/answers/${secondSimulationId}/confirm`, {}, path);
    assert.equal(confirmed.status, 303, confirmed.text);
    assert.match((await person.get(confirmed.headers.get('location') ?? '')).text, /you confirmed this answer/);

    const answer = 'I start with a long walk, without my phone, and plan on paper.';
    const corrected = await person.submit(`${path}/answers/${simulationId}/correct`, { answer, note: 'Written by me' }, path);
    assert.equal(corrected.status, 303, corrected.text);
    const list = await api.get(`/minds/${mindId}/corrections`);
    const mine = (list.body.corrections as Array<{ answer: string; scenario: string; createdBy: string; simulationId: string }>).find((c) => c.answer === answer);
    assert.ok(mine, 'the correction is a correction of the mind');
    assert.equal(mine.createdBy, `review-link:${reviewLink.id}`);
    assert.equal(mine.scenario, QUESTION);
    assert.equal(mine.simulationId, simulationId);

    const actor = `review-link:${reviewLink.id}`;
    const rows = (await auditOf(mindId)).filter((e) => e.actor === actor).map((e) => `${e.action} ${e.resourceId ?? ''}`.trim());
    assert.ok(rows.includes('review.read'), rows.join(', '));
    assert.ok(rows.includes(`review.confirm ${secondSimulationId}`), rows.join(', '));
    assert.ok(rows.some((r) => r.startsWith('correction.create ')), rows.join(', '));

    // Another mind's answer, through this mind's link: 404, nothing written.
    const foreign = await person.submit(`${path}/answers/${otherSimulationId}/correct`, { answer: 'Not mine to correct.' }, path);
    assert.equal(foreign.status, 404);
    const confirmForeign = await person.submit(`${path}/answers/${otherSimulationId}/confirm`, {}, path);
    assert.equal(confirmForeign.status, 404);
    assert.ok(!(await api.get(`/minds/${otherMindId}/corrections`)).body.corrections.length);
    // An empty answer is a clear 400.
    assert.equal((await person.submit(`${path}/answers/${simulationId}/correct`, { answer: '   ' }, path)).status, 400);
  });

  it('answers 404 for an unknown token and 410 for an expired or revoked link, as pages a person can read', async () => {
    const person = new WebClient(srv.baseUrl);
    const unknown = await person.get(`/review/${'A'.repeat(43)}`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /This review link does not exist/);
    assert.equal((await person.get('/review/not-a-token')).status, 404);

    const expiring = await makeLink(mindId, { expiresInDays: 1 });
    assert.equal((await person.get(`/review/${tokenOf(expiring.url)}`)).status, 200);
    clock.offsetMs = DAY + 60_000;
    try {
      const expired = await person.get(`/review/${tokenOf(expiring.url)}`);
      assert.equal(expired.status, 410);
      assert.match(expired.text, /expired on \d{4}-\d{2}-\d{2}/);
      const listed = await api.get(`/minds/${mindId}/review-links`);
      assert.equal(listed.body.reviewLinks.find((l: { id: string }) => l.id === expiring.reviewLink.id).status, 'expired');
    } finally {
      clock.offsetMs = 0;
    }

    const revoking = await makeLink(mindId);
    const path = `/review/${tokenOf(revoking.url)}`;
    assert.equal((await person.get(path)).status, 200);
    const csrfFrom = path;
    const token = await person.csrf(csrfFrom);
    const revoked = await api.del(`/minds/${mindId}/review-links/${revoking.reviewLink.id}`);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.reviewLink.status, 'revoked');
    const gone = await person.get(path);
    assert.equal(gone.status, 410);
    assert.match(gone.text, /withdrawn/);
    const late = await person.request('POST', `${path}/answers/${simulationId}/correct`, { _csrf: token, answer: 'Too late.' });
    assert.equal(late.status, 410);
  });

  it('refuses a correction the consent on record does not cover (403, a readable page, logged as denied)', async () => {
    const { reviewLink, url } = await makeLink(mindId);
    const person = new WebClient(srv.baseUrl);
    const path = `/review/${tokenOf(url)}`;
    assert.equal((await api.put('/account/privacy', { requireConsent: true })).status, 200);
    try {
      const refused = await person.submit(`${path}/answers/${secondSimulationId}/correct`, { answer: 'Without consent.' }, path);
      assert.equal(refused.status, 403);
      assert.match(refused.text, /Your answer could not be saved/);
      assert.match(refused.text, /consent/i);
    } finally {
      assert.equal((await api.put('/account/privacy', { requireConsent: false })).status, 200);
    }
    const list = await api.get(`/minds/${mindId}/corrections?limit=200`);
    assert.ok(!list.body.corrections.some((c: { answer: string }) => c.answer === 'Without consent.'));
    const denied = (await auditOf(mindId)).filter((e) => e.actor === `review-link:${reviewLink.id}` && e.action === 'correction.create.denied');
    assert.equal(denied.length, 1);
  });

  it("keeps another account out: 404 on its mind's links, revocation and creation", async () => {
    const mine = await makeLink(mindId);
    assert.equal((await other.get(`/minds/${mindId}/review-links`)).status, 404);
    assert.equal((await other.post(`/minds/${mindId}/review-links`, {})).status, 404);
    assert.equal((await other.del(`/minds/${mindId}/review-links/${mine.reviewLink.id}`)).status, 404);
    assert.equal((await api.del(`/minds/${mindId}/review-links/00000000-0000-4000-8000-000000000000`)).status, 404);
    assert.equal((await api.get(`/minds/${mindId}/review-links`)).body.reviewLinks.find((l: { id: string }) => l.id === mine.reviewLink.id).status, 'active');
  });

  it('is erased with the mind: the link then answers 404', async () => {
    const mind = await mindWithTranscript('Erased Review');
    const link = await makeLink(mind);
    assert.equal((await api.del(`/minds/${mind}`)).status, 204);
    assert.equal((await new WebClient(srv.baseUrl).get(`/review/${tokenOf(link.url)}`)).status, 404);
    assert.equal((await srv.ctx.store.repos.reviewLinks.byId(srv.ownerAccountId, mind, link.reviewLink.id)), undefined);
  });
});

describe('review links on PostgreSQL', { skip: PG_SKIP }, () => {
  let db: TestDatabase;
  let pg: Service;
  let c: Client;
  before(async () => {
    db = await createDatabase();
    pg = await startService({ DATABASE_URL: db.url, RUN_WORKER: 'false' }, { rt });
    c = client(pg.api, pg.apiKey);
  });
  after(async () => {
    await pg?.close();
    await db?.drop();
  });

  it('made, opened by the token, expired on the clock, revoked, and erased with the mind', async () => {
    const mind = (await c.post('/minds', { name: 'Reviewed on PostgreSQL' })).body.mind.id as string;
    const made = await c.post(`/minds/${mind}/review-links`, { expiresInDays: 1 });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const person = new WebClient(pg.baseUrl);
    const path = `/review/${tokenOf(made.body.url)}`;
    const page = await person.get(path);
    assert.equal(page.status, 200);
    assert.match(page.text, /There are no answers to review yet/);
    clock.offsetMs = DAY + 60_000;
    try {
      assert.equal((await person.get(path)).status, 410);
    } finally {
      clock.offsetMs = 0;
    }
    const revoked = await c.del(`/minds/${mind}/review-links/${made.body.reviewLink.id}`);
    assert.equal(revoked.body.reviewLink.status, 'revoked');
    assert.equal((await c.del(`/minds/${mind}/review-links/${made.body.reviewLink.id}`)).body.reviewLink.revokedAt, revoked.body.reviewLink.revokedAt);
    assert.equal((await person.get(path)).status, 410);
    assert.equal((await c.del(`/minds/${mind}`)).status, 204);
    assert.equal((await person.get(path)).status, 404);
    assert.deepEqual(await pg.ctx.store.repos.reviewLinks.ofMind(pg.ownerAccountId, mind, 10), []);
  });
});
