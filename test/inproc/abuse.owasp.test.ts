import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { UrlSigner } from '../../src/domain/signed-urls.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { buildWorld, changesTo, correctionOf, reviewLinkOf, dashboardSession, errorShapeProblem, leakIn, secretsOf, simulationOf, panelOf, type Party, type Session, type World } from '../support/abuse.ts';
import { startInProcess, type InProcess } from '../support/inproc.ts';
import { testClock } from '../../testkit/clock.ts';
import { BAD_BEARERS, ROUTES, send, type Auth, type Got, type Kind, type Targets } from '../support/owasp-routes.ts';
import { massAssignment, resourceLimits, type WalkContext } from '../support/owasp-cases.ts';

/**
 * The OWASP API Security Top 10 walk over every route of the app (one table, test/support/
 * owasp-routes.ts, checked against Fastify's route list), two accounts, real HTTP on a free port:
 * API1 object-level authorisation, API2 authentication, API3 mass assignment, API4 resource
 * consumption, API8 security headers, and no secret in the log (written at trace level).
 */
let s: InProcess;
const clock = testClock();
let w: World;
let base: string;
const sessions = new Map<string, Session>();
const extraSecrets: string[] = [];

const asGot = (g: Got) => ({ status: g.status, headers: Object.fromEntries(g.headers), text: g.text, json: g.json });

before(async () => {
  s = await startInProcess({ LOG_LEVEL: 'trace', API_KEY_CACHE_MS: '200', TRUST_PROXY: 'true', LOGIN_RATE_LIMIT: '1000' }, clock);
  w = await buildWorld(s);
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  for (const p of [w.a, w.b]) sessions.set(p.name, await dashboardSession(s.app, p.email, p.password));
});
after(() => s?.close());

async function targetsOf(p: Party): Promise<Targets> {
  const [key] = await s.ctx.services.accounts.listApiKeys(p.accountId);
  return { mindId: p.mindId, twinId: p.twinId, snapshotId: p.snapshotId, artifactId: p.artifactId, pendingArtifactId: p.pendingArtifactId, signature: new URL(p.signedUrl).search.slice(1), keyId: key?.id ?? '', tagId: p.tagId, simulationId: p.simulationId, panelId: p.panelId, correctionId: p.correctionId, reviewLinkId: p.reviewLinkId, reviewToken: p.reviewToken };
}

/** Fresh objects of the party's for requests that change or remove what they name. */
async function throwaway(p: Party): Promise<Targets> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const { mind, digitalTwin } = await s.ctx.services.minds.create(auth, 'Throwaway');
  const signed = await s.ctx.services.uploads.createSignedUrl(auth, mind.id, { fileName: 't.vtt' });
  const key = await s.ctx.services.accounts.createApiKey(p.accountId, 'throwaway');
  const keyId = (await s.ctx.services.accounts.listApiKeys(p.accountId)).find((k) => k.prefix === key.prefix)?.id ?? '';
  const tagId = (await s.ctx.services.minds.setTags(auth, mind.id, [`Throwaway ${mind.id}`])).tags[0]?.id ?? '';
  const simulationId = await simulationOf(s, p);
  const panelId = await panelOf(s, p);
  const correctionId = await correctionOf(s, { accountId: p.accountId, mindId: mind.id });
  const link = await reviewLinkOf(s, { accountId: p.accountId, mindId: mind.id });
  // A snapshot of the throwaway mind (left pending: no worker runs during the walk), for the routes that change or delete one.
  const snapshot = await s.ctx.services.snapshots.createFromFile(auth, mind.id, { bytes: Buffer.from(teamsVtt(sampleInterview().slice(0, 4))) }, {});
  return {
    ...(await targetsOf(p)),
    mindId: mind.id,
    twinId: digitalTwin.id,
    snapshotId: snapshot.mindAssessmentId,
    pendingArtifactId: signed.artifactId,
    signature: new URL(signed.signedUrl).search.slice(1),
    keyId,
    tagId,
    simulationId,
    panelId,
    correctionId,
    ...link,
  };
}

const basicOf = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

function authFor(kind: Kind, p: Party, session = sessions.get(p.name)): Auth {
  if (kind === 'api' || kind === 'mcp') return { authorization: `Bearer ${p.apiKey}` };
  if (kind === 'page' || kind === 'form') return { session };
  if (kind === 'webhook') return { authorization: basicOf(p.webhook.username, p.webhook.password) };
  return {};
}

const isMcpError = (g: Got) => g.status === 200 && /"isError":\s*true/.test(g.text);

describe('OWASP API Top 10 walk, two accounts, every route', () => {
  it('has every route of the app in its table, and nothing else', () => {
    const routes = s.routes.map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(routes.filter((r) => !ROUTES[r]), [], 'routes missing from test/support/owasp-routes.ts');
    assert.deepEqual(Object.keys(ROUTES).filter((r) => !routes.includes(r)), [], 'table entries for routes that do not exist');
  });

  it('API1 object-level authorisation: B reaches none of A’s objects; A reaches them all', async () => {
    const a = await targetsOf(w.a);
    const b = await targetsOf(w.b);
    const owned = Object.entries(ROUTES).filter(([, spec]) => spec.owned);
    assert.ok(owned.length >= 15);
    const problems: string[] = [];
    for (const [key, spec] of owned) {
      const method = key.split(' ')[0] as string;
      // B with A's ids; with its own mind and A's inner ids; for signed URLs, B's own signature on A's artifact.
      const attempts: Targets[] = [a, ...(spec.inner ? [{ ...a, mindId: b.mindId }] : [])];
      if (spec.kind === 'upload') attempts.splice(0, 1, { ...a, signature: b.signature });
      for (const t of attempts) {
        const req = spec.req(t);
        const got = await send(base, method, req, authFor(spec.kind, w.b));
        const denied = spec.kind === 'mcp' ? isMcpError(got) && /API Error \(404\).*NOT_FOUND/.test(got.text) : got.status === (spec.kind === 'upload' ? 403 : 404);
        if (!denied) problems.push(`${key} as B on ${t.mindId === b.mindId ? 'B’s mind with A’s ids' : 'A’s ids'}: ${got.status} ${got.text.slice(0, 120)}`);
        const shape = spec.kind === 'api' || spec.kind === 'upload' ? errorShapeProblem(asGot(got)) : null;
        if (shape) problems.push(`${key}: ${shape}`);
        const leak = leakIn(w, w.a, `${req.url} ${JSON.stringify(req)}`, got.text);
        if (leak) problems.push(`${key}: A's ${leak} in B's answer`);
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(await changesTo(s, w.a), [], 'B changed something of A’s');

    // The same requests by the owner succeed, so the 404s above are about ownership, not form.
    const controls: string[] = [];
    for (const [key, spec] of owned) {
      const method = key.split(' ')[0] as string;
      const t = spec.destructive ? await throwaway(w.a) : a;
      const session = spec.destructive && spec.kind === 'form' ? await dashboardSession(s.app, w.a.email, w.a.password) : undefined;
      const got = await send(base, method, spec.req(t), authFor(spec.kind, w.a, session));
      const ok = spec.kind === 'mcp' ? got.status === 200 && !isMcpError(got) : got.status < 400;
      if (!ok) controls.push(`${key} as A on its own objects: ${got.status} ${got.text.slice(0, 160)}`);
    }
    assert.deepEqual(controls, []);
  });

  it('API2 authentication: no key, malformed, unknown, revoked, or a deleted account’s key → 401 on every API route', async () => {
    // A key revoked on the dashboard, and the key of an account that no longer exists (used once before, so cached).
    const created = await send(base, 'POST', { url: '/keys', form: { name: 'to revoke' } }, { session: sessions.get('B') });
    const revoked = /value="(msk_[^"]+)"/.exec(created.text)?.[1] ?? '';
    assert.match(revoked, /^msk_/);
    assert.equal((await send(base, 'GET', { url: '/api/public/v1/models' }, { authorization: `Bearer ${revoked}` })).status, 200);
    const keyId = (await s.ctx.services.accounts.listApiKeys(w.b.accountId)).find((k) => revoked.startsWith(k.prefix))?.id;
    assert.equal((await send(base, 'POST', { url: `/keys/${keyId}/revoke`, form: {} }, { session: sessions.get('B') })).status, 303);
    const gone = await s.ctx.services.accounts.createAccount(`gone-${Date.now()}@example.com`, 'pro');
    assert.equal((await send(base, 'GET', { url: '/api/public/v1/models' }, { authorization: `Bearer ${gone.apiKey}` })).status, 200);
    await s.ctx.store.db.deleteFrom('accounts').where('id', '=', gone.accountId).execute();
    clock.advance(201); // past API_KEY_CACHE_MS (200 here): the deleted account's cached key is looked up again
    extraSecrets.push(revoked, gone.apiKey);

    const bad = { ...BAD_BEARERS, revoked: `Bearer ${revoked}`, 'deleted account': `Bearer ${gone.apiKey}`, 'key in lower case': `Bearer ${w.b.apiKey.toLowerCase()}` };
    const a = await targetsOf(w.a);
    const problems: string[] = [];
    for (const [key, spec] of Object.entries(ROUTES).filter(([, r]) => r.kind === 'api' || r.kind === 'mcp')) {
      for (const [name, authorization] of Object.entries(bad)) {
        const got = await send(base, key.split(' ')[0] as string, spec.req(a), { authorization });
        if (got.status !== 401 || errorShapeProblem(asGot(got)) || !/^Bearer/.test(got.headers.get('www-authenticate') ?? '')) {
          problems.push(`${key} with ${name}: ${got.status} ${got.text.slice(0, 100)}`);
        }
      }
    }
    // Pages: no session → the log-in page (GET) or 401/403 (POST); a session without its CSRF token → 403.
    for (const [key, spec] of Object.entries(ROUTES).filter(([, r]) => r.kind === 'page' || r.kind === 'form')) {
      const method = key.split(' ')[0] as string;
      const anonymous = await send(base, method, spec.req(a), {});
      const toLogin = method === 'GET' ? anonymous.status === 302 && /^\/login/.test(anonymous.headers.get('location') ?? '') : [401, 403].includes(anonymous.status);
      if (!toLogin) problems.push(`${key} without a session: ${anonymous.status}`);
      if (method !== 'GET') {
        const forged = await send(base, method, spec.req(a), { session: { cookie: sessions.get('B')?.cookie ?? '', csrf: 'forged' } });
        if (forged.status !== 403) problems.push(`${key} with a forged CSRF token: ${forged.status}`);
      }
    }
    // Webhook: wrong or missing credentials → 401; a standard account's real credentials → 403.
    const standard = await s.ctx.services.accounts.createAccount(`std-${Date.now()}@example.com`, 'standard');
    const creds = await s.ctx.services.webhooks.createCredentials(standard.accountId);
    extraSecrets.push(standard.apiKey, creds.password);
    for (const [authorization, status] of [
      [undefined, 401], [basicOf(w.a.webhook.username, w.b.webhook.password), 401], [`Bearer ${w.a.apiKey}`, 401], [basicOf(creds.username, creds.password), 403],
    ] as const) {
      const got = await send(base, 'POST', { url: '/webhook', json: { x: 1 } }, { authorization });
      if (got.status !== status || errorShapeProblem(asGot(got))) problems.push(`webhook (${status} expected): ${got.status}`);
    }
    // Signed URLs: none, a wrong signature, an expired one (signed with the real secret) → 403 / 403 / 410.
    const secret = await s.ctx.store.repos.settings.getOrInit('url_signing_secret', 'unused');
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = `expires=${past}&signature=${new UrlSigner(Buffer.from(secret, 'utf8')).sign(w.b.pendingArtifactId, past)}`;
    for (const [query, status] of [['', 403], [`expires=${past + 3600}&signature=abc`, 403], [expired, 410]] as const) {
      const got = await send(base, 'PUT', { url: `/uploads/${w.b.pendingArtifactId}?${query}`, raw: 'WEBVTT\n' });
      if (got.status !== status || errorShapeProblem(asGot(got))) problems.push(`upload ${query || 'unsigned'}: ${got.status} ${got.text.slice(0, 100)}`);
    }
    assert.deepEqual(problems, []);
  });

  it('API3 mass assignment: fields a client must not set are ignored or refused', async () => {
    const problems = await massAssignment(walk());
    assert.deepEqual(problems, []);
  });

  // The timeout is the deadline for a request never answered (a limit that does not stop it), not a measure: every case
  // together takes about 0.6 s.
  it('API4 resource consumption: body, header and query limits answer 4xx, never 5xx', { timeout: 60_000 }, async () => {
    const problems = await resourceLimits(walk());
    assert.deepEqual(problems, []);
  });

  it('API8 security headers on the dashboard and the API; HSTS only over https; no inline script in any page', async () => {
    const problems: string[] = [];
    const a = await targetsOf(w.b);
    for (const [key, spec] of Object.entries(ROUTES)) {
      const method = key.split(' ')[0] as string;
      if (method !== 'GET') continue;
      const got = await send(base, method, spec.req(a), authFor(spec.kind, w.b));
      const h = (n: string) => got.headers.get(n) ?? '';
      const csp = h('content-security-policy');
      if (h('x-content-type-options') !== 'nosniff') problems.push(`${key}: nosniff missing`);
      if (!h('referrer-policy')) problems.push(`${key}: Referrer-Policy missing`);
      if (!/frame-ancestors 'none'/.test(csp) || h('x-frame-options') !== 'DENY') problems.push(`${key}: framing allowed (${csp})`);
      if (!/(script-src|default-src) '(self|none)'/.test(csp) || /script-src[^;]*'unsafe-(inline|eval)'/.test(csp)) problems.push(`${key}: script CSP ${csp}`);
      if (h('strict-transport-security')) problems.push(`${key}: HSTS over plain http`);
      if (spec.kind === 'api' && !/default-src 'none'/.test(csp)) problems.push(`${key}: API CSP ${csp}`);
      if (/text\/html/.test(h('content-type'))) {
        const inline = /<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|javascript:/i.exec(got.text);
        if (inline) problems.push(`${key}: inline script in the page: ${inline[0]}`);
        if (spec.kind !== 'public' && /\sstyle\s*=/.test(got.text)) problems.push(`${key}: inline style attribute (the CSP refuses it)`);
      }
    }
    for (const url of ['/login', '/api/public/v1/models', '/healthz', '/api/public/v1/nope']) {
      const got = await send(base, 'GET', { url, headers: { 'x-forwarded-proto': 'https' } }, { authorization: `Bearer ${w.b.apiKey}` });
      if (!/max-age=\d{7,}/.test(got.headers.get('strict-transport-security') ?? '')) problems.push(`${url} behind https: no HSTS`);
    }
    assert.deepEqual(problems, []);
  });

  it('API8 no secret in any log line: keys, passwords, Basic credentials, cookies, signatures, signing secrets', async () => {
    const logs = s.logs();
    assert.ok(logs.split('\n').length > 200, 'the walk was logged (at trace level)');
    const secret = await s.ctx.store.repos.settings.getOrInit('url_signing_secret', 'unused');
    const cookies = [...sessions.values()].flatMap((x) => x.cookie.split('; ').map((c) => decodeURIComponent(c.split('=').slice(1).join('='))));
    const all = [...secretsOf(w.a), ...secretsOf(w.b), ...extraSecrets, ...cookies, ...[...sessions.values()].map((x) => x.csrf), secret, s.ctx.web.sessionSecret];
    const found = all.filter((x) => x.length >= 8 && logs.includes(x));
    assert.deepEqual(found.map((x) => `${x.slice(0, 12)}…`), []);
  });
});

function walk(): WalkContext {
  return { s, w, base, sessions, send: (method, req, auth) => send(base, method, req, auth) };
}
