/**
 * Mass assignment (API3) and resource consumption (API4) cases of the OWASP walk
 * (test/inproc/abuse.owasp.test.ts): each returns a list of problems, empty when all is well.
 */
import http from 'node:http';
import type { InProcess } from './inproc.ts';
import { errorShapeProblem, type Session, type World } from './abuse.ts';
import type { Auth, Got, Req } from './owasp-routes.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { rawRequest } from '../../testkit/http.ts';

export interface WalkContext {
  s: InProcess;
  w: World;
  base: string;
  sessions: Map<string, Session>;
  send(method: string, req: Req, auth?: Auth): Promise<Got>;
}

const API = '/api/public/v1';
const FOREIGN = '11111111-1111-4111-8111-111111111111';
const LONG_AGO = '2000-01-01T00:00:00.000Z';

export async function massAssignment(c: WalkContext): Promise<string[]> {
  const { w } = c;
  const b: Auth = { authorization: `Bearer ${w.b.apiKey}` };
  const a: Auth = { authorization: `Bearer ${w.a.apiKey}` };
  const out: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || out.push(what));
  const owner = { id: FOREIGN, accountId: w.a.accountId, account_id: w.a.accountId, createdAt: LONG_AGO, updatedAt: LONG_AGO, status: 'completed', tier: 'pro' };

  const made = await c.send('POST', { url: `${API}/minds`, json: { name: 'MA', ...owner, digitalTwins: [{ id: FOREIGN, name: 'Evil' }] } }, b);
  check(made.status === 200 || made.status === 400, `POST /minds with extra fields: ${made.status}`);
  if (made.status === 200) {
    const id = made.json.mind.id as string;
    check(id !== FOREIGN && made.json.mind.createdAt !== LONG_AGO, 'POST /minds took the client’s id or createdAt');
    check(made.json.digitalTwin.id !== FOREIGN && made.json.digitalTwin.name === 'Default', 'POST /minds took the client’s twin');
    check((await c.send('GET', { url: `${API}/minds/${id}` }, a)).status === 404, 'a mind created with accountId=A belongs to A');
    const renamed = await c.send('PATCH', { url: `${API}/minds/${id}`, json: { name: 'MA2', ...owner } }, b);
    check(renamed.status === 200 && renamed.json.id === id && renamed.json.createdAt === made.json.mind.createdAt, `PATCH took id/createdAt: ${renamed.text}`);
    check((await c.send('GET', { url: `${API}/minds/${id}` }, a)).status === 404, 'PATCH with accountId=A moved the mind to A');
  }

  const vtt = teamsVtt(sampleInterview().slice(0, 4));
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...owner, mindId: w.a.mindId, snapshotId: FOREIGN })) form.append(k, v);
  form.append('file', new Blob([vtt], { type: 'text/vtt' }), 'ma.vtt');
  const snap = await fetch(`${c.base}${API}/minds/${w.b.mindId}/snapshots`, { method: 'POST', headers: { authorization: b.authorization ?? '' }, body: form });
  const started = (await snap.json()) as { mindAssessmentId: string };
  check(snap.status === 200 && started.mindAssessmentId !== FOREIGN, `snapshot with extra fields: ${snap.status}`);
  const status = await c.send('GET', { url: `${API}/minds/${w.b.mindId}/snapshots/${started.mindAssessmentId}/status` }, b);
  check(status.json?.mindId === w.b.mindId && status.json?.status !== 'completed' && status.json?.createdAt !== LONG_AGO, `snapshot took client fields: ${status.text}`);

  const signed = await c.send('GET', { url: `${API}/minds/${w.b.mindId}/signed-url?fileName=x.vtt&artifactId=${FOREIGN}&expires=9999999999&signature=abc` }, b);
  const ttl = Date.parse(signed.json?.expiresAt ?? '') - Date.now();
  check(signed.status === 200 && signed.json.artifactId !== FOREIGN && ttl > 0 && ttl < 3600_000, `signed-url took client fields: ${signed.text}`);

  const sim = await c.send('POST', { url: `${API}/simulate`, json: { mindId: w.b.mindId, scenario: { message: 'How do you start the day?' }, snapshotIds: [w.a.snapshotId], confidence: 1, evidence: [] } }, b);
  check(sim.status === 200 && JSON.stringify(sim.json.snapshotIds) === JSON.stringify([w.b.snapshotId]), `simulate used client snapshotIds: ${sim.text.slice(0, 200)}`);

  const keysBefore = (await c.s.ctx.services.accounts.listApiKeys(w.a.accountId)).length;
  await c.send('POST', { url: '/keys', form: { name: 'MA', accountId: w.a.accountId, account_id: w.a.accountId } }, { session: c.sessions.get('B') });
  check((await c.s.ctx.services.accounts.listApiKeys(w.a.accountId)).length === keysBefore, 'POST /keys with accountId=A made a key for A');

  // Sign-up with tier=pro makes a standard account.
  const page = await fetch(`${c.base}/signup`);
  const cookie = page.headers.getSetCookie().map((x) => x.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const email = `ma-${Date.now()}@example.com`;
  await c.send('POST', { url: '/signup', form: { _csrf: csrf, email, password: 'a long enough password', tier: 'pro', id: FOREIGN }, headers: { cookie } });
  const account = await c.s.ctx.store.repos.accounts.byEmail(email);
  check(account?.tier === 'standard' && account.id !== FOREIGN, `sign-up took client fields: ${JSON.stringify(account && { tier: account.tier, id: account.id })}`);

  const mcp = await c.send('POST', { url: '/mcp', json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_mind', arguments: { name: 'MA', ...owner } } } }, b);
  check(mcp.status === 200 && !mcp.text.includes(FOREIGN), `MCP create_mind took client fields: ${mcp.text.slice(0, 200)}`);
  return out;
}

/** A request with a body that the server may answer before reading it all (as it should for 413). */
function declared(url: string, method: string, length: number, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, 'content-length': String(length) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.write('WEBVTT\n');
  });
}

export async function resourceLimits(c: WalkContext): Promise<string[]> {
  const { w, base } = c;
  const out: string[] = [];
  const bearer = { authorization: `Bearer ${w.b.apiKey}` };
  const json = { ...bearer, 'content-type': 'application/json' };
  const mb = 1024 * 1024;
  const big = (n: number) => Buffer.from(JSON.stringify({ name: 'x'.repeat(n) }));
  const multipart = async (form: FormData) => {
    const r = new Response(form);
    return { body: Buffer.from(await r.arrayBuffer()), type: r.headers.get('content-type') ?? '' };
  };
  const many = new FormData();
  for (let i = 0; i < 40; i++) many.append(`f${i}`, 'x');
  const wide = new FormData();
  wide.append('speaker', 'x'.repeat(100 * 1024));
  const file = new FormData();
  file.append('file', new Blob([new Uint8Array(4 * mb + 1)]), 'big.vtt');
  const basic = `Basic ${Buffer.from(`${w.b.webhook.username}:${w.b.webhook.password}`).toString('base64')}`;
  const deep = 10_000;
  const cases: Array<[string, () => Promise<{ status: number; text: string }>, number[]]> = [
    ['JSON body over 1 MB', () => rawRequest(`${base}${API}/minds`, 'POST', big(mb), json), [413]],
    ['simulate body over 1 MB', () => rawRequest(`${base}${API}/simulate`, 'POST', big(mb + 10), json), [413]],
    ['JSON with 60,000 keys', () => rawRequest(`${base}${API}/minds`, 'POST', Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1])))), json), [400]],
    ['scenario of 20,001 characters', () => rawRequest(`${base}${API}/simulate`, 'POST', Buffer.from(JSON.stringify({ mindId: w.b.mindId, scenario: { message: 'a'.repeat(20_001) } })), json), [400]],
    ['direct file over 4 MB', async () => { const m = await multipart(file); return rawRequest(`${base}${API}/minds/${w.b.mindId}/snapshots`, 'POST', m.body, { ...bearer, 'content-type': m.type }); }, [413]],
    ['40 multipart fields', async () => { const m = await multipart(many); return rawRequest(`${base}${API}/minds/${w.b.mindId}/snapshots`, 'POST', m.body, { ...bearer, 'content-type': m.type }); }, [413]],
    ['a 100 kB multipart field', async () => { const m = await multipart(wide); return rawRequest(`${base}${API}/minds/${w.b.mindId}/snapshots`, 'POST', m.body, { ...bearer, 'content-type': m.type }); }, [400, 413]],
    ['webhook over 1 MB', () => rawRequest(`${base}/webhook`, 'POST', big(mb), { authorization: basic, 'content-type': 'application/json' }), [413]],
    ['webhook nested 10,000 deep', () => rawRequest(`${base}/webhook`, 'POST', Buffer.from('['.repeat(deep) + ']'.repeat(deep)), { authorization: basic, 'content-type': 'application/json' }), [400]],
    ['API JSON nested 150,000 deep', () => rawRequest(`${base}${API}/minds`, 'POST', Buffer.from('['.repeat(150_000) + ']'.repeat(150_000)), json), [400]],
    ['MCP JSON nested 150,000 deep', () => rawRequest(`${base}/mcp`, 'POST', Buffer.from('{"a":'.repeat(150_000) + '1' + '}'.repeat(150_000)), { ...json, accept: 'application/json, text/event-stream' }), [400]],
    ['MCP body over its limit', () => rawRequest(`${base}/mcp`, 'POST', big(6 * mb), { ...json, accept: 'application/json, text/event-stream' }), [413]],
    ['dashboard form over 64 kB', () => rawRequest(`${base}/minds`, 'POST', Buffer.from(`name=${'x'.repeat(70_000)}`), { cookie: c.sessions.get('B')?.cookie ?? '', 'content-type': 'application/x-www-form-urlencoded' }), [413]],
    ['upload declaring 60 MB', async () => ({ status: await declared(`${base}/uploads/${w.b.pendingArtifactId}${new URL(w.b.signedUrl).search}`, 'PUT', 60 * mb), text: '' }), [413]],
    ['a 20 kB header', () => rawRequest(`${base}${API}/models`, 'GET', Buffer.alloc(0), { ...bearer, 'x-big': 'a'.repeat(20_000) }), [431]],
    ['a 20 kB URL', () => rawRequest(`${base}${API}/minds/${'a'.repeat(20_000)}`, 'GET', Buffer.alloc(0), bearer), [414, 431]],
    ['a path id over 100 characters', () => rawRequest(`${base}${API}/minds/${'a'.repeat(500)}`, 'GET', Buffer.alloc(0), bearer), [414]],
    ['a malformed percent-encoding in the path', () => rawRequest(`${base}${API}/minds/%E0%A4%A`, 'GET', Buffer.alloc(0), bearer), [400]],
    ['limit=1000000', () => rawRequest(`${base}${API}/minds?limit=1000000`, 'GET', Buffer.alloc(0), bearer), [400]],
    ['a 1,000-character cursor', () => rawRequest(`${base}${API}/minds?cursor=${'a'.repeat(1000)}`, 'GET', Buffer.alloc(0), bearer), [400]],
    ['a 10,000-character fileName', () => rawRequest(`${base}${API}/minds/${w.b.mindId}/signed-url?fileName=${'a'.repeat(10_000)}`, 'GET', Buffer.alloc(0), bearer), [400]],
    ['2,000 query parameters', () => rawRequest(`${base}${API}/minds?${Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join('&')}`, 'GET', Buffer.alloc(0), bearer), [200, 400]],
  ];
  // The answer's status says which limit stopped the request; how fast is not asserted (a verdict never depends on the
  // machine's speed). A request never answered is caught by the calling test's timeout.
  for (const [name, run, expected] of cases) {
    const got = await run().catch((err: Error) => ({ status: 0, text: err.message }));
    if (!expected.includes(got.status)) out.push(`${name}: ${got.status} (expected ${expected.join(' or ')}) ${got.text.slice(0, 120)}`);
    let body: unknown;
    try {
      body = JSON.parse(got.text);
    } catch {
      body = undefined;
    }
    // The service's own answers have the error shape; Node's 431/414 (before any route) and the dashboard's pages do not.
    if (got.status >= 400 && body !== undefined && !name.startsWith('dashboard')) {
      const shape = errorShapeProblem({ status: got.status, headers: { 'content-type': 'application/json' }, text: got.text, json: body });
      if (shape) out.push(`${name}: ${shape}`);
    }
  }
  return out;
}
