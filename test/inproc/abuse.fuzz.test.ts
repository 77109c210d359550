import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc, { type Arbitrary } from 'fast-check';
import { buildWorld, changesTo, dashboardSession, errorShapeProblem, leakIn, type Session, type World } from '../support/abuse.ts';
import { cases, type Case } from '../support/fuzz-cases.ts';
import { webCases } from '../support/fuzz-web-cases.ts';
import { inject, multipart, startInProcess, type Answer, type InProcess } from '../support/inproc.ts';

/**
 * Property-based fuzzing of every JSON, multipart and form endpoint, in-process (app.inject), as
 * account B with account A's ids in every id position. Each answer: no 5xx; the documented error
 * shape on a 4xx; nothing of A's (its canaries, or an id of A's the request did not carry); no 2xx
 * for a request that names one of A's objects. A fixed seed by default; FUZZ_RUNS (per endpoint)
 * and FUZZ_SEED to go further, e.g. FUZZ_RUNS=1000 FUZZ_SEED=$RANDOM.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Routes with nothing a client shapes (static files, docs) or that end the fuzzing session itself. */
const NOT_FUZZED: Record<string, string> = {
  'GET /docs': 'static documentation',
  'GET /docs/static/index.html': 'static documentation',
  'GET /docs/static/swagger-initializer.js': 'static documentation',
  'GET /docs/json': 'generated document, no input',
  'GET /docs/yaml': 'generated document, no input',
  'GET /docs/static/*': 'static files (@fastify/static)',
  'GET /assets/*': 'static files (@fastify/static)',
  'GET /assets/vendor/*': 'static files (@fastify/static)',
  'GET /healthz': 'no input',
  'GET /api/public/v1/openapi.json': 'no input',
  'GET /mcp': 'answers 405 whatever is sent',
  'DELETE /mcp': 'answers 405 whatever is sent',
  'GET /': 'a redirect, no input',
  'GET /signup': 'a form, no input',
  'GET /keys': 'no input',
  'GET /integrations/webhooks': 'no input',
  'GET /integrations/webhooks/events': 'no input',
  'GET /account': 'no input',
  'POST /logout': 'ends the session the fuzzing runs in (walked in abuse.owasp.test.ts)',
  'POST /account/password': 'ends the sessions the fuzzing runs in (walked in abuse.owasp.test.ts)',
  'POST /integrations/webhooks/credentials': 'takes no input; rotates the credentials the webhook cases use',
};

let s: InProcess;
let w: World;
let all: Record<string, Arbitrary<Case>>;
/** A second session of B's, for the checks after the fuzzing (which may end the first one). */
let later: Session;
const victimIds = new Set<string>();

before(async () => {
  s = await startInProcess();
  w = await buildWorld(s);
  for (const id of w.ids(w.a)) victimIds.add(id);
  // B's session for the dashboard cases; A's is never used, so nothing here can act as A.
  all = { ...cases(w), ...webCases(w, await dashboardSession(s.app, w.b.email, w.b.password)) };
  later = await dashboardSession(s.app, w.b.email, w.b.password);
});
after(() => s?.close());

async function send(c: Case): Promise<Answer> {
  const headers = { ...c.headers };
  let payload: string | Buffer | undefined;
  if (c.body && 'json' in c.body) payload = JSON.stringify(c.body.json) ?? 'null';
  else if (c.body && 'raw' in c.body) payload = typeof c.body.raw === 'string' ? c.body.raw : Buffer.from(c.body.raw);
  else if (c.body && 'parts' in c.body) {
    const form = new FormData();
    for (const p of c.body.parts) {
      if ('value' in p) form.append(p.name, p.value);
      else form.append(p.name, new Blob([new Uint8Array(p.file)], { type: p.type }), p.filename);
    }
    const m = await multipart(form);
    payload = m.payload;
    headers['content-type'] = m.contentType;
  }
  return inject(s.app, { method: c.method, url: c.url, headers, payload });
}

const JSON_RPC_ERROR = (v: unknown) => typeof (v as { error?: { code?: unknown } })?.error?.code === 'number';

/** Everything wrong with an answer to a case, or null. */
function problem(key: string, c: Case, a: Answer): string | null {
  const page = !key.includes('/api/') && !/^(PUT \/uploads|POST \/webhook|POST \/mcp)/.test(key) && c.headers.accept !== 'application/json';
  const mcpRpcError = key === 'POST /mcp' && a.status < 500 && JSON_RPC_ERROR(a.json);
  const shape = errorShapeProblem(a, !page && !mcpRpcError);
  if (shape) return shape;
  const requestText = `${c.url} ${JSON.stringify(c.body ?? '')} ${JSON.stringify(c.headers)}`;
  const leak = leakIn(w, w.a, requestText, a.text);
  if (leak) return `A's ${leak} in the answer`;
  const named = c.ids.filter((id) => victimIds.has(id));
  if (named.length && a.status < 300) {
    if (key !== 'POST /mcp') return `${a.status} for a request naming A's ${named.join(', ')}`;
    if (!/"isError":\s*true/.test(a.text)) return `MCP tool succeeded with A's ${named.join(', ')}: ${a.text.slice(0, 200)}`;
  }
  if (key === 'PUT /uploads/:artifactId' && a.status < 300) return 'a tampered signed URL was accepted';
  if (key === 'POST /webhook' && a.status < 300 && c.headers.authorization !== `Basic ${Buffer.from(`${w.b.webhook.username}:${w.b.webhook.password}`).toString('base64')}`) {
    return 'the webhook accepted credentials that are not valid';
  }
  const sent = c.body && 'json' in c.body ? (c.body.json as Record<string, unknown> | null) : null;
  if (/minds(\/:mindId)?$/.test(key) && a.status < 300 && sent && typeof sent === 'object' && 'id' in sent) {
    const mind = (a.json?.mind ?? a.json) as { id?: string };
    if (mind?.id === sent.id) return 'mass assignment: the client chose the mind id';
  }
  if (key === 'GET /login' && a.status >= 300 && a.status < 400) {
    const to = String(a.headers.location ?? '');
    if (!to.startsWith('/') || to.startsWith('//') || to.includes('\\')) return `open redirect to ${to}`;
  }
  return null;
}

describe('fuzzing every endpoint as account B', () => {
  it('has a case for every route, or a reason why not', () => {
    const covered = new Set([...Object.keys(all), ...Object.keys(NOT_FUZZED)]);
    // The API under /api/mindsim is the same implementation (abuse.owasp runs its checks there too): its v1 case covers it.
    const missing = s.routes.map((r) => `${r.method} ${r.url.replace(/^\/api\/mindsim\//, '/api/public/v1/')}`).filter((k) => !covered.has(k));
    assert.deepEqual(missing, [], 'routes without fuzz cases: add them to test/support/fuzz-cases.ts (or NOT_FUZZED with a reason)');
    const stale = Object.keys(all).filter((k) => !s.routes.some((r) => `${r.method} ${r.url}` === k));
    assert.deepEqual(stale, [], 'fuzz cases for routes that no longer exist');
  });

  // Log-in and sign-up last: a sign-up logs the session in as the new account.
  const order = () => [...Object.keys(all).filter((k) => !/^POST \/(signup|login)$/.test(k)), 'POST /login', 'POST /signup'];
  it('no 5xx, the error shape, nothing of A’s, for random valid, near-valid and invalid requests', async (t) => {
    const seen = new Map<string, Map<number, number>>();
    for (const key of order()) {
      const arb = all[key] as Arbitrary<Case>;
      const statuses = new Map<number, number>();
      seen.set(key, statuses);
      await fc.assert(
        fc.asyncProperty(arb, async (c) => {
          const a = await send(c);
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          const p = problem(key, c, a);
          if (p) throw new Error(`${key}: ${p}\n${c.method} ${c.url}`);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    t.diagnostic(`statuses: ${[...seen].map(([k, m]) => `${k} ${JSON.stringify(Object.fromEntries(m))}`).join('; ')}`);
    // Each API endpoint answered something besides errors: the generators reach past validation.
    for (const [key, statuses] of RUNS >= 20 ? seen : []) {
      if (!key.includes('/api/') || key.includes('DELETE')) continue;
      assert.ok([...statuses.keys()].some((st) => st < 300), `${key} never succeeded: ${JSON.stringify([...statuses])}`);
    }
  });

  it('left B’s lists and pages readable (nothing stored by the fuzzing breaks them)', async () => {
    const bearer = { authorization: `Bearer ${w.b.apiKey}` };
    // The fuzzing may have left B's snapshot unlinked (a legitimate state, in which its profile is 409): linked back first.
    await s.ctx.services.snapshots.link({ accountId: w.b.accountId, tier: 'pro', apiKeyId: null }, w.b.mindId, w.b.snapshotId, w.b.twinId);
    for (const url of ['/api/public/v1/minds?limit=200', '/api/public/v1/webhook-events?limit=200', `/api/public/v1/minds/${w.b.mindId}/snapshots?limit=200`, `/api/public/v1/minds/${w.b.mindId}/profile`]) {
      const a = await inject(s.app, { method: 'GET', url, headers: bearer });
      assert.equal(a.status, 200, `${url}: ${a.text.slice(0, 200)}`);
    }
    for (const url of ['/minds', '/keys', '/usage', '/integrations/webhooks', '/integrations/webhooks/events', `/minds/${w.b.mindId}`]) {
      const a = await inject(s.app, { method: 'GET', url, headers: { cookie: later.cookie } });
      assert.equal(a.status, 200, `${url}: ${a.text.slice(0, 200)}`);
    }
  });

  it('left every object of A’s as it was', async () => {
    assert.deepEqual(await changesTo(s, w.a), []);
  });
});
