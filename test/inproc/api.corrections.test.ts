import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { CorrectionDeleted, CorrectionEnvelope, CorrectionList } from '../../src/http/schemas/corrections.ts';
import { client, fileForm, waitForSnapshot, type Client, type Reply } from '../../testkit/http.ts';
import { consentTo } from '../../testkit/consent.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { RetentionService } from '../../src/domain/retention.ts';
import { systemRuntime } from '../../src/kernel/runtime.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

/**
 * Corrections in the API (issue 32, items 1 and 3), over real HTTP and storage with two accounts:
 * create, list (paged), read, delete, from a simulation's turn; 400 on empty or over-long text, 404 on
 * unknown or another account's ids; consent refusal, `stored` redaction, the access log, and erasure
 * with the mind and on withdrawal. The repository's queries also on PostgreSQL (TEST_DATABASE_URL).
 */
let srv: Service;
let api: Client;
let other: Client;

before(async () => {
  srv = await startService();
  api = client(srv.api, srv.apiKey);
  const b = await srv.admin.createAccount('corrections-other@example.com', 'pro');
  other = client(srv.api, b.apiKey);
});
after(() => srv?.close());

const NONE = '00000000-0000-4000-8000-000000000000';

function conforms<T extends z.ZodType>(schema: T, r: Reply, status: number): z.infer<T> {
  assert.equal(r.status, status, JSON.stringify(r.body));
  const parsed = schema.safeParse(r.body);
  assert.ok(parsed.success, `${JSON.stringify(r.body).slice(0, 300)}: ${parsed.error?.message}`);
  assert.deepEqual(parsed.data, r.body, 'no field beyond the schema');
  return parsed.data;
}

async function mindWithTranscript(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api.post('/minds', { name, ...extra });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const mindId = created.body.mind.id as string;
  const up = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await waitForSnapshot(api, mindId, up.body.mindAssessmentId);
  return mindId;
}

const bareMind = async (name: string, extra: Record<string, unknown> = {}): Promise<string> => {
  const created = await api.post('/minds', { name, ...extra });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.mind.id as string;
};

const auditActions = async (mindId: string): Promise<string[]> => {
  const r = await api.get(`/audit?mindId=${mindId}&limit=200`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.entries as Array<{ action: string }>).map((e) => e.action).reverse();
};

describe('corrections in the API', () => {
  it('create → 201 {correction}; GET one; list newest first with its count, paged; DELETE; each logged', async () => {
    const mindId = await bareMind('Correction Basics');
    const first = conforms(CorrectionEnvelope, await api.post(`/minds/${mindId}/corrections`, { scenario: '  Would you hire a self-taught engineer?  ', answer: 'Yes, without a second thought.', note: 'Said so at lunch' }), 201).correction;
    assert.deepEqual(
      { ...first, id: '', createdAt: '' },
      { id: '', mindId, scenario: 'Would you hire a self-taught engineer?', answer: 'Yes, without a second thought.', simulationId: null, note: 'Said so at lunch', createdAt: '', createdBy: first.createdBy },
    );
    assert.match(first.createdBy, /^key:[0-9a-f-]{36}$/);
    assert.match(first.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const second = conforms(CorrectionEnvelope, await api.post(`/minds/${mindId}/corrections`, { scenario: 'Tea or coffee?', answer: 'Tea.' }), 201).correction;
    assert.equal(second.note, null);

    assert.deepEqual(conforms(CorrectionEnvelope, await api.get(`/minds/${mindId}/corrections/${first.id}`), 200).correction, first);
    const all = conforms(CorrectionList, await api.get(`/minds/${mindId}/corrections`), 200);
    assert.deepEqual(all, { corrections: [second, first], count: 2 });
    const page1 = await api.get(`/minds/${mindId}/corrections?limit=1`);
    assert.deepEqual(conforms(CorrectionList, page1, 200), { corrections: [second], count: 2 });
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')?.[1];
    assert.ok(next, 'the next page in the Link header');
    const page2 = await api.get(next.slice(srv.api.length));
    assert.deepEqual(conforms(CorrectionList, page2, 200), { corrections: [first], count: 2 });
    assert.equal(page2.headers.get('link'), null);

    assert.deepEqual(conforms(CorrectionDeleted, await api.del(`/minds/${mindId}/corrections/${first.id}`), 200), { message: 'Correction deleted successfully', correctionId: first.id });
    assert.equal((await api.get(`/minds/${mindId}/corrections/${first.id}`)).status, 404);
    assert.equal((await api.del(`/minds/${mindId}/corrections/${first.id}`)).status, 404);
    assert.deepEqual(conforms(CorrectionList, await api.get(`/minds/${mindId}/corrections`), 200), { corrections: [second], count: 1 });

    const actions = await auditActions(mindId);
    for (const a of ['correction.create', 'correction.read', 'corrections.list', 'correction.delete']) assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
  });

  it('POST /simulations/{id}/corrections takes the scenario from its latest turn', async () => {
    const mindId = await mindWithTranscript('Correction From Simulation');
    const sim = await api.post('/simulate', { mindId, scenario: { message: 'How do you pick a new hire?' } });
    assert.equal(sim.status, 200, JSON.stringify(sim.body));
    const conversationId = sim.body.simulationId as string;
    const follow = await api.post('/simulate', { mindId, conversationId, scenario: { message: 'And how do you onboard them?' } });
    assert.equal(follow.status, 200, JSON.stringify(follow.body));
    const c = conforms(CorrectionEnvelope, await api.post(`/simulations/${conversationId}/corrections`, { answer: 'Pair them with someone for a month.', note: 'from the review' }), 201).correction;
    assert.deepEqual([c.mindId, c.scenario, c.answer, c.simulationId, c.note], [mindId, 'And how do you onboard them?', 'Pair them with someone for a month.', conversationId, 'from the review']);
    // A simulationId on the mind's own route must be one of this mind's simulations.
    const linked = await api.post(`/minds/${mindId}/corrections`, { scenario: 'x?', answer: 'y.', simulationId: conversationId });
    assert.equal(linked.status, 201);
    const otherMind = await bareMind('Correction Elsewhere');
    assert.equal((await api.post(`/minds/${otherMind}/corrections`, { scenario: 'x?', answer: 'y.', simulationId: conversationId })).status, 404);
    assert.ok((await auditActions(mindId)).includes('correction.create'));
  });

  it('400 on empty, blank or over-long text (the limits of a scenario), unknown fields or a bad id; 404 on unknown ids', async () => {
    const mindId = await bareMind('Correction Limits');
    const long = 'a'.repeat(20_001);
    for (const body of [{ scenario: '', answer: 'x' }, { scenario: '   ', answer: 'x' }, { scenario: 'x' }, { answer: 'x' }, { scenario: long, answer: 'x' }, { scenario: 'x', answer: long }, { scenario: 'x', answer: 'y', note: 'n'.repeat(2_001) }, { scenario: 'x', answer: 'y', simulationId: 'nope' }, { scenario: 1, answer: 'y' }]) {
      const r = await api.post(`/minds/${mindId}/corrections`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)} → ${r.status}`);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
    }
    assert.equal((await api.post(`/minds/${mindId}/corrections`, { scenario: 'a'.repeat(20_000), answer: 'ok' })).status, 201, 'exactly the limit is taken');
    assert.equal((await api.get(`/minds/${mindId}/corrections/not-a-uuid`)).status, 400);
    assert.equal((await api.post(`/simulations/${NONE}/corrections`, { answer: '' })).status, 400);
    const missing = await api.post(`/simulations/${NONE}/corrections`, { answer: 'x' });
    assert.deepEqual([missing.status, missing.body.code], [404, 'SIMULATION_NOT_FOUND']);
    assert.deepEqual([(await api.get(`/minds/${NONE}/corrections`)).status, (await api.post(`/minds/${NONE}/corrections`, { scenario: 'x', answer: 'y' })).status], [404, 404]);
    const nf = await api.get(`/minds/${mindId}/corrections/${NONE}`);
    assert.deepEqual([nf.status, nf.body.code], [404, 'CORRECTION_NOT_FOUND']);
  });

  it("another account's mind, correction and simulation are 404 on every route, and nothing of theirs changes", async () => {
    const mindId = await mindWithTranscript('Correction Tenancy');
    const mine = (await api.post(`/minds/${mindId}/corrections`, { scenario: 'Cats or dogs?', answer: 'Dogs.' })).body.correction;
    const sim = (await api.post('/simulate', { mindId, scenario: { message: 'What do you read?' } })).body.simulationId as string;
    const theirs = (await other.post('/minds', { name: 'Theirs' })).body.mind.id as string;
    const replies = [
      await other.get(`/minds/${mindId}/corrections`),
      await other.post(`/minds/${mindId}/corrections`, { scenario: 'x', answer: 'y' }),
      await other.get(`/minds/${mindId}/corrections/${mine.id}`),
      await other.del(`/minds/${mindId}/corrections/${mine.id}`),
      await other.get(`/minds/${theirs}/corrections/${mine.id}`),
      await other.del(`/minds/${theirs}/corrections/${mine.id}`),
      await other.post(`/simulations/${sim}/corrections`, { answer: 'y' }),
      await other.post(`/minds/${theirs}/corrections`, { scenario: 'x', answer: 'y', simulationId: sim }),
    ];
    assert.deepEqual(replies.map((r) => r.status), replies.map(() => 404), JSON.stringify(replies.map((r) => r.body?.code)));
    assert.ok(replies.every((r) => !JSON.stringify(r.body).includes('Dogs')));
    assert.deepEqual((await api.get(`/minds/${mindId}/corrections`)).body, { corrections: [mine], count: 1 });
  });

  it('refused (403 consent_required) when the account requires consent the mind lacks; taken once consent covers simulate', async () => {
    const b = await srv.admin.createAccount('corrections-consent@example.com', 'pro');
    const c = client(srv.api, b.apiKey);
    assert.equal((await c.put('/account/privacy', { requireConsent: true })).status, 200);
    const mindId = (await c.post('/minds', { name: 'Consent Needed' })).body.mind.id as string;
    const refused = await c.post(`/minds/${mindId}/corrections`, { scenario: 'Tea?', answer: 'No.' });
    assert.deepEqual([refused.status, refused.body.code], [403, 'CONSENT_REQUIRED']);
    assert.deepEqual((await c.get(`/minds/${mindId}/corrections`)).body, { corrections: [], count: 0 });
    assert.equal((await c.put(`/minds/${mindId}`, { name: 'Consent Needed', consent: { ...consentTo('panels'), subject: 'Consent Needed' } })).status, 200);
    assert.equal((await c.post(`/minds/${mindId}/corrections`, { scenario: 'Tea?', answer: 'No.' })).status, 403, 'a scope without simulate');
    assert.equal((await c.put(`/minds/${mindId}`, { name: 'Consent Needed', consent: { ...consentTo('simulate'), subject: 'Consent Needed' } })).status, 200);
    assert.equal((await c.post(`/minds/${mindId}/corrections`, { scenario: 'Tea?', answer: 'No.' })).status, 201);
  });

  it('a mind with `stored` redaction keeps its corrections redacted; off keeps them as written', async () => {
    const text = 'Write to me at maria.lopez@example.com or call +44 20 7946 0958.';
    const stored = await bareMind('Redacted Correction', { redaction: 'stored' });
    const kept = conforms(CorrectionEnvelope, await api.post(`/minds/${stored}/corrections`, { scenario: 'How can people reach you?', answer: text }), 201).correction;
    assert.ok(!kept.answer.includes('maria.lopez@example.com') && !kept.answer.includes('7946'), kept.answer);
    assert.match(kept.answer, /\[email\]/);
    assert.equal((await api.get(`/minds/${stored}/corrections/${kept.id}`)).body.correction.answer, kept.answer);
    const plain = await bareMind('Plain Correction');
    assert.equal((await api.post(`/minds/${plain}/corrections`, { scenario: 'How can people reach you?', answer: text })).body.correction.answer, text);
  });

  it("are erased with the mind's deletion and with a withdrawal of consent", async () => {
    const canary = `Canary answer ${process.pid} zebra`;
    for (const how of ['delete', 'withdraw'] as const) {
      const mindId = await bareMind(`Erased by ${how}`);
      assert.equal((await api.post(`/minds/${mindId}/corrections`, { scenario: 'Favourite animal?', answer: canary })).status, 201);
      const gone = how === 'delete' ? await api.del(`/minds/${mindId}`) : await api.put(`/minds/${mindId}`, { consent: { status: 'withdrawn' } });
      assert.ok(gone.status < 300, JSON.stringify(gone.body));
      const rows = await srv.ctx.store.repos.corrections.ofMind(mindId);
      assert.deepEqual(rows, [], `no correction left after ${how}`);
      assert.equal((await api.get(`/minds/${mindId}/corrections`)).status, how === 'delete' ? 404 : 410);
    }
  });
});

describe('corrections on PostgreSQL', { skip: PG_SKIP }, () => {
  let db: TestDatabase;
  let pg: Service;
  let c: Client;
  before(async () => {
    db = await createDatabase();
    pg = await startService({ DATABASE_URL: db.url, RUN_WORKER: 'false' });
    c = client(pg.api, pg.apiKey);
  });
  after(async () => {
    await pg?.close();
    await db?.drop();
  });

  it('create, list paged with its count, read, delete, and erased with the mind', async () => {
    const mindId = (await c.post('/minds', { name: 'On PostgreSQL' })).body.mind.id as string;
    const made: string[] = [];
    for (const n of [1, 2, 3]) made.push(conforms(CorrectionEnvelope, await c.post(`/minds/${mindId}/corrections`, { scenario: `Question ${n}?`, answer: `Answer ${n}.` }), 201).correction.id);
    const page1 = await c.get(`/minds/${mindId}/corrections?limit=2`);
    const first = conforms(CorrectionList, page1, 200);
    assert.equal(first.count, 3);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get('link') ?? '')?.[1] ?? assert.fail('a next page');
    const second = conforms(CorrectionList, await c.get(next.slice(pg.api.length)), 200);
    assert.deepEqual([...first.corrections, ...second.corrections].map((x) => x.id).sort(), [...made].sort());
    assert.equal((await c.get(`/minds/${mindId}/corrections/${made[0]}`)).body.correction.answer, 'Answer 1.');
    assert.equal((await c.del(`/minds/${mindId}/corrections/${made[0]}`)).status, 200);
    assert.equal((await c.get(`/minds/${mindId}/corrections/${made[0]}`)).status, 404);
    assert.equal((await c.del(`/minds/${mindId}`)).status, 204);
    assert.deepEqual(await pg.ctx.store.repos.corrections.ofMind(mindId), []);
  });

  it('the retention sweep finds and erases the old ones', async () => {
    const kept = (await c.post('/minds', { name: 'Retained on PostgreSQL' })).body.mind.id as string;
    const old = (await c.post(`/minds/${kept}/corrections`, { scenario: 'Old?', answer: 'Old.' })).body.correction.id as string;
    assert.equal((await c.put('/account/privacy', { retentionDays: 30 })).status, 200);
    const later = { ...systemRuntime, now: () => new Date(Date.now() + 31 * 24 * 3600_000) };
    const report = await new RetentionService(pg.ctx.store, pg.ctx.services.snapshots, later).sweep();
    assert.equal(report.corrections, 1);
    assert.equal((await c.get(`/minds/${kept}/corrections/${old}`)).status, 404);
  });
});
