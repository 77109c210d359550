/**
 * Consent on record (issue 25): the consent object on the Mind (POST /minds, PUT /minds/{id}, the
 * MCP tool set_consent), its validation, the account's privacy settings (GET/PUT /account/privacy),
 * what an account requiring consent refuses (simulate, background simulations, panels, the LLM
 * engine; REST and MCP: 403 CONSENT_REQUIRED naming the missing scope, expired consent counting as
 * none), that a snapshot's LLM reflections and estimates are made only under a consent covering
 * "llm", and withdrawal: the person's data erased (no row, blob or cache entry of their words; only
 * the access log and the content-free consent_withdrawals row may name the mind's id), 410
 * CONSENT_WITHDRAWN afterwards. The LLM provider is a local stand-in speaking the OpenAI protocol.
 * Withdrawal also on PostgreSQL (TEST_DATABASE_URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../src/config.ts';
import { AccountService } from '../../src/domain/accounts.ts';
import { LoginService } from '../../src/domain/logins.ts';
import { systemRuntime } from '../../src/kernel/runtime.ts';
import { FULL_CONSENT, consentTo } from '../../testkit/consent.ts';
import { blobPaths, pgRowsNaming, sqliteRowsNaming } from '../../testkit/erasure.ts';
import { sampleInterview, teamsVtt, type Turn } from '../../testkit/fixtures.ts';
import { client, type Client } from '../../testkit/http.ts';
import { replyByName, startLlmStandIn, type LlmStandIn, type ProviderRequest } from '../../testkit/llm-provider.ts';
import { SAM_QUESTIONS } from '../../testkit/panels.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { blobOf, failure, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

const STANDARD = 'mind-reasoner-standard';
const PRO = 'mind-reasoner-pro';
const NONE = '00000000-0000-4000-8000-000000000000';

let provider: LlmStandIn;
let received: ProviderRequest[] = [];
let srv: Service;
let sdk: TestSdk;
let api: Client;

const ANSWER = { thinking: 't', feeling: 'f', saying: 'Remote, without question.', acting: 'a', confidence: 0.8 };
const REFLECTIONS = { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' };
const ESTIMATES = { bigFive: [], judgements: [] };
const TYPED = { choice: 'no_evidence', saying: 'No idea.', confidence: 0, passages: [] };

before(async () => {
  provider = await startLlmStandIn(replyByName({ reflections: REFLECTIONS, psychometrics: ESTIMATES, typed_answer: TYPED }, ANSWER));
  received = provider.requests;
  srv = await startService(
    provider.env({
      // The owner's simulations are flushed by the service itself; the usage meter by the tests only.
      USAGE_FLUSH_MS: '600000',
    }),
  );
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
});
after(async () => {
  await srv?.close();
  await provider?.close();
});

/** A mind with a completed snapshot of the sample interview (plus `extra` turns of Sam's). */
async function readyMind(s: TestSdk, name: string, consent?: unknown, extra: Turn[] = []): Promise<{ mindId: string; twinId: string; snapshotId: string; artifactId: string }> {
  const created = await s.minds.create({ name, ...(consent ? { consent: consent as typeof FULL_CONSENT } : {}) });
  const r = await s.snapshots.create(created.mind.id, { file: blobOf(teamsVtt([...sampleInterview(), ...extra])), fileName: 'interview.vtt' });
  assert.equal((await waitFor(s, created.mind.id, r.mindAssessmentId)).status, 'completed');
  return { mindId: created.mind.id, twinId: created.digitalTwin.id, snapshotId: r.mindAssessmentId, artifactId: r.artifactId };
}

const ask = (mindId: string, model = STANDARD, extra: Record<string, unknown> = {}) => ({ mindId, selectedSimulationModel: model, scenario: { message: 'Do you prefer working remotely?' }, ...extra });

async function mcpConnect(key: string): Promise<McpClient> {
  const c = new McpClient({ name: 'consent-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return c;
}

async function tool(c: McpClient, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: Boolean(r.isError), text: r.content.map((x) => (x.type === 'text' ? x.text : '')).join('') };
}

describe('the consent record', () => {
  it('is {status: "unknown"} until given; POST /minds and PUT record it (dates in UTC), "unknown" clears it; GET and the list show it', async () => {
    const plain = await sdk.minds.create('No Consent Yet');
    assert.deepEqual(plain.mind.consent, { status: 'unknown' });
    assert.deepEqual((await sdk.minds.get(plain.mind.id)).consent, { status: 'unknown' });

    const created = await sdk.minds.create({ name: 'Consented', consent: { ...consentTo('llm', 'simulate'), obtainedAt: '2026-01-05T10:30:00+02:00', expiresAt: '2030-01-01' } });
    const expected = { status: 'granted', subject: 'Sam Okafor', obtainedAt: '2026-01-05T08:30:00.000Z', method: 'written', scope: ['simulate', 'llm'], expiresAt: '2030-01-01T00:00:00.000Z', evidenceArtifactId: null };
    assert.deepEqual(created.mind.consent, expected);
    assert.deepEqual((await sdk.minds.get(created.mind.id)).consent, expected);
    const listed = (await sdk.minds.list().all()).find((m) => m.id === created.mind.id);
    assert.deepEqual(listed?.consent, expected);

    const put = await sdk.minds.setConsent(plain.mind.id, { ...FULL_CONSENT, method: 'verbal', subject: 'S. O.' });
    assert.deepEqual([put.success, put.mind.consent.status, put.mind.consent.method, put.mind.consent.subject, put.mind.consent.expiresAt], [true, 'granted', 'verbal', 'S. O.', null]);
    const renamed = await sdk.minds.put(plain.mind.id, { name: 'Renamed, consent kept' });
    assert.deepEqual([renamed.mind.name, renamed.mind.consent.method], ['Renamed, consent kept', 'verbal']);
    assert.deepEqual((await sdk.minds.setConsent(plain.mind.id, { status: 'unknown' })).mind.consent, { status: 'unknown' });
  });

  it('evidenceArtifactId must be a file uploaded to the same mind: 400 CONSENT_EVIDENCE_NOT_FOUND otherwise (and always at creation)', async () => {
    const { mind } = await sdk.minds.create('With Evidence');
    const other = await sdk.minds.create('Other Mind');
    const form = await sdk.uploads.upload(mind.id, blobOf('%PDF-1.4 signed consent form'), { fileName: 'consent.pdf' });
    const theirs = await sdk.uploads.upload(other.mind.id, blobOf('%PDF-1.4 another form'), { fileName: 'consent.pdf' });

    const ok = await sdk.minds.setConsent(mind.id, { ...FULL_CONSENT, evidenceArtifactId: form.artifactId });
    assert.equal(ok.mind.consent.evidenceArtifactId, form.artifactId);
    for (const artifactId of [theirs.artifactId, NONE]) {
      const err = await failure(sdk.minds.setConsent(mind.id, { ...FULL_CONSENT, evidenceArtifactId: artifactId }));
      assert.deepEqual([err.status, err.code, err.details?.field], [400, 'CONSENT_EVIDENCE_NOT_FOUND', 'consent.evidenceArtifactId']);
    }
    assert.equal((await sdk.minds.get(mind.id)).consent.evidenceArtifactId, form.artifactId, 'a refused change leaves the record as it was');
    const atCreation = await failure(sdk.minds.create({ name: 'Too Early', consent: { ...FULL_CONSENT, evidenceArtifactId: form.artifactId } }));
    assert.deepEqual([atCreation.status, atCreation.code], [400, 'CONSENT_EVIDENCE_NOT_FOUND']);
    assert.match(atCreation.message, /upload/);
  });

  it('bad consent input is 400 naming each field and what it needs', async () => {
    const { mind } = await sdk.minds.create('Validation');
    const cases: Array<[unknown, string[]]> = [
      [{ status: 'granted' }, ['body.consent.subject', 'body.consent.obtainedAt', 'body.consent.method', 'body.consent.scope']],
      [{ ...FULL_CONSENT, subject: '  ' }, ['body.consent.subject']],
      [{ ...FULL_CONSENT, method: 'telepathy' }, ['body.consent.method']],
      [{ ...FULL_CONSENT, scope: [] }, ['body.consent.scope']],
      [{ ...FULL_CONSENT, scope: ['simulate', 'email'] }, ['body.consent.scope.1']],
      [{ ...FULL_CONSENT, obtainedAt: 'last tuesday' }, ['body.consent.obtainedAt']],
      [{ ...FULL_CONSENT, expiresAt: '2025-01-01' }, ['body.consent.expiresAt']],
      [{ ...FULL_CONSENT, evidenceArtifactId: 'not-a-uuid' }, ['body.consent.evidenceArtifactId']],
      [{ status: 'unknown', subject: 'Sam' }, ['body.consent.subject']],
      [{ status: 'maybe' }, ['body.consent.status']],
      ['granted', ['body.consent']],
    ];
    for (const [consent, fields] of cases) {
      const r = await api.put(`/minds/${mind.id}`, { consent });
      assert.deepEqual([r.status, r.body.code], [400, 'VALIDATION_FAILED'], JSON.stringify(consent));
      const named = (r.body.details.fields as Array<{ field: string; message: string }>).map((f) => f.field);
      assert.deepEqual(named.filter((f) => fields.includes(f)).sort(), [...fields].sort(), `${JSON.stringify(consent)}: ${JSON.stringify(r.body.details.fields)}`);
    }
    const missing = await api.put(`/minds/${mind.id}`, { consent: { status: 'granted', subject: 'Sam' } });
    assert.match(JSON.stringify(missing.body.details.fields), /required when status is \\"granted\\"/);

    const atCreation = await api.post('/minds', { name: 'Withdrawn at birth', consent: { status: 'withdrawn' } });
    assert.deepEqual([atCreation.status, atCreation.body.code], [400, 'CONSENT_WITHDRAWN_AT_CREATION']);
    const mixed = await api.put(`/minds/${mind.id}`, { name: 'x', consent: { status: 'withdrawn' } });
    assert.deepEqual([mixed.status, mixed.body.code], [400, 'CONSENT_WITHDRAWAL_ALONE']);
    assert.equal((await sdk.minds.get(mind.id)).name, 'Validation', 'nothing was changed or erased');
  });

  it("another account's mind: 404 for a consent change and for a withdrawal, and its record is untouched", async () => {
    const b = await srv.admin.createAccount(`consent-b-${process.pid}@example.com`, 'standard');
    const theirs = await srv.sdk(b.apiKey).minds.create({ name: 'Theirs', consent: FULL_CONSENT });
    assert.equal(await statusOf(sdk.minds.setConsent(theirs.mind.id, { status: 'unknown' })), 404);
    assert.equal(await statusOf(sdk.minds.withdrawConsent(theirs.mind.id)), 404);
    assert.equal((await srv.sdk(b.apiKey).minds.get(theirs.mind.id)).consent.status, 'granted');
  });
});

describe('the account privacy settings', () => {
  it('GET and PUT /account/privacy: requireConsent off and retentionDays null by default; each account its own; 400 for bad values', async () => {
    const b = await srv.admin.createAccount(`privacy-b-${process.pid}@example.com`, 'standard');
    const theirs = srv.sdk(b.apiKey);
    assert.deepEqual(await theirs.account.privacy(), { requireConsent: false, retentionDays: null });
    assert.deepEqual(await theirs.account.setPrivacy({ retentionDays: 30 }), { requireConsent: false, retentionDays: 30 });
    assert.deepEqual(await theirs.account.setPrivacy({ requireConsent: true }), { requireConsent: true, retentionDays: 30 });
    assert.deepEqual(await theirs.account.setPrivacy({ retentionDays: null }), { requireConsent: true, retentionDays: null });
    assert.deepEqual(await sdk.account.privacy(), { requireConsent: false, retentionDays: null }, "one account's settings are not another's");
    for (const bad of [{}, { retentionDays: 0 }, { retentionDays: 36_501 }, { retentionDays: 1.5 }, { retentionDays: '30' }, { requireConsent: 'yes' }]) {
      const r = await api.put('/account/privacy', bad);
      assert.deepEqual([r.status, r.body.code], [400, 'VALIDATION_FAILED'], JSON.stringify(bad));
    }
    assert.equal((await client(srv.api, 'msk_00000000_wrong').get('/account/privacy')).status, 401);
  });

  it('REQUIRE_CONSENT=true: accounts made afterwards (API keys and dashboard sign-ups) require consent', async () => {
    assert.equal(loadConfig({ REQUIRE_CONSENT: 'true' }).requireConsent, true);
    assert.equal(loadConfig({}).requireConsent, false);
    assert.throws(() => loadConfig({ REQUIRE_CONSENT: 'sometimes' }), /REQUIRE_CONSENT/);
    const repos = srv.ctx.store.repos;
    const viaKey = await new AccountService(repos, systemRuntime, 0, { requireConsent: true }).createAccount(`strict-${process.pid}@example.com`, 'standard');
    const viaSignUp = await new LoginService(repos, systemRuntime, { requireConsent: true }).signUp(`strict-web-${process.pid}@example.com`, 'a long enough password 1');
    for (const id of [viaKey.accountId, viaSignUp.id]) assert.equal((await repos.consent.accountPrivacy(id))?.require_consent, 1);
    assert.equal((await repos.consent.accountPrivacy(srv.ownerAccountId))?.require_consent, 0);
  });
});

describe('an account that requires consent', { concurrency: false }, () => {
  let strict: TestSdk;
  let strictKey: string;
  let none: string;
  let simulateOnly: string;
  let expired: string;
  let full: string;
  let mcp: McpClient;

  before(async () => {
    const acct = await srv.admin.createAccount(`strict-acct-${process.pid}@example.com`, 'pro');
    strictKey = acct.apiKey;
    strict = srv.sdk(strictKey);
    [none, simulateOnly, expired, full] = await Promise.all([
      readyMind(strict, 'No Consent').then((m) => m.mindId),
      readyMind(strict, 'Simulate Only', consentTo('simulate')).then((m) => m.mindId),
      readyMind(strict, 'Expired', { ...FULL_CONSENT, obtainedAt: '2020-01-01', expiresAt: '2020-06-01' }).then((m) => m.mindId),
      readyMind(strict, 'Full Consent', FULL_CONSENT).then((m) => m.mindId),
    ]);
    assert.deepEqual(await strict.account.setPrivacy({ requireConsent: true }), { requireConsent: true, retentionDays: null });
    mcp = await mcpConnect(strictKey);
  });
  after(() => mcp?.close());

  it('simulate: 403 CONSENT_REQUIRED naming the missing scope; expired consent counts as none; a covered use answers', async () => {
    const cases: Array<[string, string, string[], string]> = [
      [none, STANDARD, ['simulate'], 'unknown'],
      [none, PRO, ['simulate', 'llm'], 'unknown'],
      [simulateOnly, PRO, ['llm'], 'granted'],
      [expired, STANDARD, ['simulate'], 'expired'],
    ];
    for (const [mindId, model, missing, consent] of cases) {
      const err = await failure(strict.simulate(ask(mindId, model)));
      assert.deepEqual([err.status, err.code], [403, 'CONSENT_REQUIRED'], `${mindId} ${model}`);
      assert.deepEqual(err.details, { mindId, missing, consent, ...(consent === 'expired' ? { expiredAt: '2020-06-01T00:00:00.000Z' } : {}) });
      assert.equal(await statusOf(strict.simulate(ask(mindId, model, { runInBackground: true }))), 403, 'a background simulation is refused at once');
    }
    assert.match((await failure(strict.simulate(ask(simulateOnly, PRO)))).message, /"llm".*mind-reasoner-standard/s);
    const before = received.filter((r) => r.schemaName === 'simulation').length;
    assert.equal((await strict.simulate(ask(simulateOnly, STANDARD))).model, STANDARD);
    assert.equal((await strict.simulate(ask(full, PRO))).model, PRO);
    assert.equal(received.filter((r) => r.schemaName === 'simulation').length, before + 1, 'only the covered LLM use reached the provider');
  });

  it('panels: 403 CONSENT_REQUIRED naming the mind and the missing scope; every refused mind in details.minds; covered minds answer', async () => {
    const err = await failure(strict.panels.create({ mindIds: [full, none, simulateOnly], questions: SAM_QUESTIONS.slice(0, 2), selectedSimulationModel: STANDARD }));
    assert.deepEqual([err.status, err.code, err.details?.mindId, err.details?.missing], [403, 'CONSENT_REQUIRED', none, ['panels']]);
    assert.deepEqual(
      (err.details?.minds as Array<{ mindId: string; missing: string[] }>).map((m) => [m.mindId, m.missing]),
      [
        [none, ['panels']],
        [simulateOnly, ['panels']],
      ],
    );
    const llm = await failure(strict.panels.create({ mindIds: [expired], questions: SAM_QUESTIONS.slice(0, 1), selectedSimulationModel: PRO }));
    assert.deepEqual([llm.code, llm.details?.missing, llm.details?.consent], ['CONSENT_REQUIRED', ['panels', 'llm'], 'expired']);
    const ok = await strict.panels.create({ mindIds: [full], questions: SAM_QUESTIONS.slice(0, 2), selectedSimulationModel: STANDARD });
    const done = await strict.panels.wait(ok.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
    assert.deepEqual([done.status, done.mindsDone], ['completed', 1]);
  });

  it('MCP: simulate and run_panel are refused with CONSENT_REQUIRED; set_consent records a consent, after which simulate answers', async () => {
    const sim = await tool(mcp, 'simulate', { mindId: none, message: 'Hello?', model: STANDARD });
    assert.ok(sim.isError);
    assert.match(sim.text, /403/);
    assert.match(sim.text, /CONSENT_REQUIRED/);
    const panel = await tool(mcp, 'run_panel', { mindIds: [none], questions: SAM_QUESTIONS.slice(0, 1), selectedSimulationModel: STANDARD, wait: false });
    assert.ok(panel.isError);
    assert.match(panel.text, /CONSENT_REQUIRED/);

    const bad = await tool(mcp, 'set_consent', { mindId: none, status: 'granted', subject: 'Sam' });
    assert.ok(bad.isError);
    assert.match(bad.text, /400/);
    assert.match(bad.text, /consent\.method/);
    const set = await tool(mcp, 'set_consent', { mindId: none, status: 'granted', subject: 'Sam Okafor', obtainedAt: '2026-02-01', method: 'verbal', scope: ['simulate'] });
    assert.ok(!set.isError, set.text);
    assert.deepEqual(JSON.parse(set.text).mind.consent.scope, ['simulate']);
    const now = await tool(mcp, 'simulate', { mindId: none, message: 'Hello?', model: STANDARD });
    assert.ok(!now.isError, now.text);
    await strict.minds.setConsent(none, { status: 'unknown' });
  });

  it('turned off again, the same minds are simulated without consent', async () => {
    await strict.account.setPrivacy({ requireConsent: false });
    try {
      assert.equal(await statusOf(strict.simulate(ask(none))), 200);
      assert.equal(await statusOf(strict.simulate(ask(expired))), 200);
    } finally {
      await strict.account.setPrivacy({ requireConsent: true });
    }
  });
});

describe("a snapshot's LLM reflections and estimates", () => {
  it('are made only under a consent covering "llm", whatever the account setting; psychometrics says why there are none', async () => {
    const count = (schema: string) => received.filter((r) => r.schemaName === schema).length;
    const before = { reflections: count('reflections'), psychometrics: count('psychometrics') };
    const withoutLlm = await readyMind(sdk, 'Sam Okafor', consentTo('simulate', 'panels'));
    const unknown = await readyMind(sdk, 'Sam Okafor');
    assert.deepEqual({ reflections: count('reflections'), psychometrics: count('psychometrics') }, before, 'nothing of theirs was sent to the provider');
    for (const m of [withoutLlm, unknown]) {
      const p = await sdk.snapshots.psychometrics(m.mindId, m.snapshotId);
      assert.match(p.gaps.find((g) => g.part === 'llm_estimates')?.reason ?? '', /consent.*"llm"/);
    }
    await readyMind(sdk, 'Sam Okafor', FULL_CONSENT);
    assert.equal(count('reflections'), before.reflections + 1);
    assert.equal(count('psychometrics'), before.psychometrics + 1);
  });
});

describe('withdrawal of consent', { concurrency: false }, () => {
  const MARKER = 'Quillibrantoxe';
  const extra: Turn[] = [
    { speaker: 'Dana Reyes', text: 'One last thing?' },
    { speaker: 'Sam Okafor', text: `My secret word is ${MARKER}, and I say ${MARKER} often.` },
  ];

  it("erases the person's data at once (no row, blob or cache entry of their words), keeps the record, and answers 410 CONSENT_WITHDRAWN", async () => {
    const kept = await readyMind(sdk, 'Kept Person', FULL_CONSENT);
    const gone = await readyMind(sdk, 'Sam Okafor', FULL_CONSENT, extra);
    const form = await sdk.uploads.upload(gone.mindId, blobOf('%PDF-1.4 signed consent form'), { fileName: 'consent.pdf' });
    await sdk.minds.setConsent(gone.mindId, { ...FULL_CONSENT, evidenceArtifactId: form.artifactId });
    const sim = await sdk.simulate(ask(gone.mindId, STANDARD, { scenario: { message: `What is ${MARKER}?` } }));
    await sdk.minds.profile(gone.mindId);
    const panel = await sdk.panels.create({ mindIds: [kept.mindId, gone.mindId], questions: SAM_QUESTIONS.slice(0, 2), selectedSimulationModel: STANDARD });
    await sdk.panels.wait(panel.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
    const ids = [gone.mindId, gone.twinId, gone.snapshotId, gone.artifactId, form.artifactId, sim.simulationId];
    assert.ok(sqliteRowsNaming(srv.dataDir, [MARKER]).includes('memories.text'), 'the scan sees the words before');
    assert.ok(blobPaths(srv.dataDir).some((p) => p.includes(gone.mindId)));
    assert.ok(srv.ctx.memories.heldSnapshotIds().includes(gone.snapshotId), 'the cache holds the memory before');

    const w = await sdk.minds.withdrawConsent(gone.mindId);
    assert.deepEqual([w.success, w.mindId, w.consent.status, w.erasedSnapshots], [true, gone.mindId, 'withdrawn', 1]);
    assert.ok(!Number.isNaN(Date.parse(w.consent.withdrawnAt)));

    assert.deepEqual(sqliteRowsNaming(srv.dataDir, [MARKER]), [], 'no table holds their words');
    const naming = sqliteRowsNaming(srv.dataDir, ids).filter((c) => !c.startsWith('access_log.'));
    assert.deepEqual(naming, ['consent_withdrawals.mind_id'], 'only the content-free record (and the access log) names the mind');
    assert.deepEqual(blobPaths(srv.dataDir).filter((p) => p.includes(gone.mindId)), []);
    assert.ok(!srv.ctx.memories.heldSnapshotIds().includes(gone.snapshotId));
    const record = await srv.ctx.store.repos.consent.withdrawal(srv.ownerAccountId, gone.mindId);
    assert.deepEqual(record, { mind_id: gone.mindId, account_id: srv.ownerAccountId, withdrawn_at: w.consent.withdrawnAt });

    for (const call of [
      () => sdk.minds.get(gone.mindId),
      () => sdk.simulate(ask(gone.mindId)),
      () => sdk.snapshots.status(gone.mindId, gone.snapshotId),
      () => sdk.minds.put(gone.mindId, { name: 'Back?' }),
      () => sdk.minds.setConsent(gone.mindId, FULL_CONSENT),
      () => sdk.minds.withdrawConsent(gone.mindId),
      () => sdk.minds.delete(gone.mindId),
      () => sdk.panels.create({ mindIds: [gone.mindId], questions: SAM_QUESTIONS.slice(0, 1) }),
    ]) {
      const err = await failure(call());
      assert.deepEqual([err.status, err.code], [410, 'CONSENT_WITHDRAWN']);
      assert.deepEqual(err.details, { mindId: gone.mindId, withdrawnAt: w.consent.withdrawnAt });
    }
    assert.ok(!(await sdk.minds.list().all()).some((m) => m.id === gone.mindId), 'gone from the list');
    const b = await srv.admin.createAccount(`withdraw-b-${process.pid}@example.com`, 'standard');
    assert.equal(await statusOf(srv.sdk(b.apiKey).minds.get(gone.mindId)), 404, 'another account learns nothing of it');

    const answers = await sdk.panels.answers(panel.panel.id, { limit: 100 });
    assert.ok(answers.answers.length > 0 && answers.answers.every((a) => a.mindId === kept.mindId), "the panel keeps only the other mind's answers");
    assert.equal(await statusOf(sdk.simulate(ask(kept.mindId))), 200, 'the other mind is whole');
  });

  it('MCP set_consent withdrawn erases only with confirmErase: true', async () => {
    const { mindId } = await readyMind(sdk, 'Via Mcp', FULL_CONSENT);
    const c = await mcpConnect(srv.apiKey);
    try {
      const asked = await tool(c, 'set_consent', { mindId, status: 'withdrawn' });
      assert.ok(!asked.isError);
      assert.equal(JSON.parse(asked.text).erased, false);
      assert.equal((await sdk.minds.get(mindId)).consent.status, 'granted');
      const done = await tool(c, 'set_consent', { mindId, status: 'withdrawn', confirmErase: true });
      assert.ok(!done.isError, done.text);
      assert.equal(JSON.parse(done.text).consent.status, 'withdrawn');
      assert.equal((await failure(sdk.minds.get(mindId))).code, 'CONSENT_WITHDRAWN');
    } finally {
      await c.close();
    }
  });

  describe('on PostgreSQL', { skip: PG_SKIP }, () => {
    let db: TestDatabase;
    let pgSrv: Service;
    before(async () => {
      db = await createDatabase();
      pgSrv = await startService({ DATABASE_URL: db.url });
    });
    after(async () => {
      await pgSrv?.close();
      await db?.drop();
    });

    it('the same erasure and record, and 410 afterwards', async () => {
      const s = pgSrv.sdk();
      const kept = await readyMind(s, 'Kept Person', FULL_CONSENT);
      const gone = await readyMind(s, 'Sam Okafor', FULL_CONSENT, extra);
      const sim = await s.simulate(ask(gone.mindId));
      const panel = await s.panels.create({ mindIds: [kept.mindId, gone.mindId], questions: SAM_QUESTIONS.slice(0, 1), selectedSimulationModel: STANDARD });
      await s.panels.wait(panel.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
      assert.ok((await pgRowsNaming(db.url, [MARKER])).length > 0, 'the scan sees the words before');

      const w = await s.minds.withdrawConsent(gone.mindId);
      assert.deepEqual(await pgRowsNaming(db.url, [MARKER]), []);
      const naming = (await pgRowsNaming(db.url, [gone.mindId, gone.twinId, gone.snapshotId, gone.artifactId, sim.simulationId])).filter((c) => !c.startsWith('access_log.'));
      assert.deepEqual(naming, ['consent_withdrawals.mind_id']);
      assert.deepEqual(blobPaths(pgSrv.dataDir).filter((p) => p.includes(gone.mindId)), []);
      const err = await failure(s.minds.get(gone.mindId));
      assert.deepEqual([err.status, err.code, err.details?.withdrawnAt], [410, 'CONSENT_WITHDRAWN', w.consent.withdrawnAt]);
      assert.ok((await s.panels.answers(panel.panel.id, { limit: 100 })).answers.every((a) => a.mindId === kept.mindId));

      await s.account.setPrivacy({ requireConsent: true });
      const none = await readyMind(s, 'No Consent');
      assert.deepEqual((await failure(s.simulate(ask(none.mindId)))).details?.missing, ['simulate']);
      assert.equal(await statusOf(s.simulate(ask(kept.mindId))), 200);
    });
  });
});

describe('the dashboard', { concurrency: false }, () => {
  const PASSWORD = 'a long enough password';
  let web: WebClient;
  before(async () => {
    const { email } = await srv.admin.setPassword(srv.ownerAccountId, PASSWORD);
    web = new WebClient(srv.baseUrl);
    assert.equal((await web.logIn(email, PASSWORD)).status, 303);
  });

  /** Posts a form from `from` with repeated fields allowed (checkboxes). */
  const post = async (path: string, fields: Array<[string, string]>, from: string) =>
    web.request('POST', path, new URLSearchParams([['_csrf', await web.csrf(from)], ...fields]).toString(), { 'content-type': 'application/x-www-form-urlencoded' });

  it('the mind page shows the consent record and sets, clears and (after a confirmation page) withdraws it', async () => {
    const { mind } = await sdk.minds.create('Dashboard Person');
    const page = `/minds/${mind.id}`;
    assert.match((await web.get(page)).text, /No consent on record/);

    const set = await post(`${page}/consent`, [['status', 'granted'], ['subject', 'D. P.'], ['obtainedAt', '2026-03-02'], ['method', 'contract'], ['scope', 'simulate'], ['scope', 'llm'], ['expiresAt', ''], ['evidenceArtifactId', '']], page);
    assert.equal(set.status, 303);
    assert.deepEqual((await sdk.minds.get(mind.id)).consent, { status: 'granted', subject: 'D. P.', obtainedAt: '2026-03-02T00:00:00.000Z', method: 'contract', scope: ['simulate', 'llm'], expiresAt: null, evidenceArtifactId: null });
    const shown = (await web.get(page)).text;
    assert.match(shown, /D\. P\./);
    assert.match(shown, /simulate, llm/);

    const bad = await post(`${page}/consent`, [['status', 'granted'], ['subject', ''], ['obtainedAt', '2026-03-02'], ['method', 'contract']], page);
    assert.equal(bad.status, 400);
    assert.match(bad.text, /consent\.subject/);
    assert.equal((await post(`${page}/consent`, [['status', 'unknown']], page)).status, 303);
    assert.deepEqual((await sdk.minds.get(mind.id)).consent, { status: 'unknown' });

    const confirm = await web.get(`${page}/consent/withdraw`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /cannot be undone/);
    assert.equal((await sdk.minds.get(mind.id)).name, 'Dashboard Person', 'the confirmation page changes nothing');
    const done = await post(`${page}/consent/withdraw`, [], `${page}/consent/withdraw`);
    assert.equal(done.status, 200);
    assert.match(done.text, /Consent withdrawn/);
    assert.equal((await web.get(page)).status, 410);
    assert.equal((await failure(sdk.minds.get(mind.id))).code, 'CONSENT_WITHDRAWN');
  });

  it('the account page sets requireConsent and retentionDays; a bad value is refused with its reason', async () => {
    try {
      const saved = await post('/account/privacy', [['requireConsent', 'on'], ['retentionDays', '90']], '/account');
      assert.equal(saved.status, 200);
      assert.match(saved.text, /Privacy settings saved/);
      assert.deepEqual(await sdk.account.privacy(), { requireConsent: true, retentionDays: 90 });
      const bad = await post('/account/privacy', [['retentionDays', '0']], '/account');
      assert.equal(bad.status, 400);
      assert.match(bad.text, /retentionDays/);
      assert.deepEqual(await sdk.account.privacy(), { requireConsent: true, retentionDays: 90 }, 'a refused form changes nothing');
    } finally {
      assert.equal((await post('/account/privacy', [['retentionDays', '']], '/account')).status, 200);
    }
    assert.deepEqual(await sdk.account.privacy(), { requireConsent: false, retentionDays: null }, 'an unticked box turns it off; an empty number keeps everything');
  });
});
