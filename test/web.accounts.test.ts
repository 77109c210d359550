import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startService, type Service } from '../testkit/service.ts';
import { testClock } from '../testkit/clock.ts';
import { WebClient } from './support/web.ts';

/** The dashboard's accounts and sessions over real HTTP to the in-process service; `admin set-password` as the operator runs it. */
const PASSWORD = 'a long enough password';
let n = 0;
const email = () => `web-${process.pid}-${Date.now()}-${++n}@example.com`;

/** `admin set-password`, with the password piped on stdin as an operator would. */
function setPassword(srv: Service, accountId: string, password: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn(process.execPath, ['src/cli/admin.ts', 'set-password', '--account', accountId], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: srv.env,
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
    p.stdin.end(`${password}\n`);
  });
}

describe('dashboard accounts and sessions', () => {
  let srv: Service;
  before(async () => {
    srv = await startService({ LOG_LEVEL: 'info' });
  });
  after(() => srv?.close());

  it('signs up with an HttpOnly, SameSite=Lax session cookie and shows the account', async () => {
    const web = new WebClient(srv.baseUrl);
    const me = email();
    const r = await web.signUp(me, PASSWORD);
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/keys');
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('mindsim_session='));
    assert.ok(cookie, 'a session cookie is set');
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/, 'no Secure flag over plain http');
    const keys = await web.get('/keys');
    assert.equal(keys.status, 200);
    assert.ok(keys.text.includes(me));
    assert.match(keys.text, /standard/);
  });

  it('stores only a hash of the session id', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    const raw = decodeURIComponent(web.cookies.get('mindsim_session') ?? '').split('.')[0]!;
    assert.ok(raw.length >= 20);
    const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT id_hash, data FROM sessions').all() as Array<{ id_hash: string; data: string }>;
      assert.ok(rows.length > 0);
      for (const row of rows) {
        assert.notEqual(row.id_hash, raw);
        assert.ok(!row.data.includes(raw));
      }
    } finally {
      db.close();
    }
  });

  it('answers a taken email, a weak password and a wrong password with clear messages', async () => {
    const me = email();
    assert.equal((await new WebClient(srv.baseUrl).signUp(me, PASSWORD)).status, 303);

    const taken = await new WebClient(srv.baseUrl).signUp(me.toUpperCase(), PASSWORD);
    assert.equal(taken.status, 409);
    assert.match(taken.text, /An account with this email already exists/);

    const weak = await new WebClient(srv.baseUrl).signUp(email(), 'short');
    assert.equal(weak.status, 400);
    assert.match(weak.text, /at least 10 characters/);

    const wrong = await new WebClient(srv.baseUrl).logIn(me, 'not the password');
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Wrong email or password/);
    const unknown = await new WebClient(srv.baseUrl).logIn(email(), PASSWORD);
    assert.equal(unknown.status, 401);
    assert.match(unknown.text, /Wrong email or password/);

    const web = new WebClient(srv.baseUrl);
    const ok = await web.logIn(me, PASSWORD);
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), '/minds');
    assert.equal((await web.get('/minds')).status, 200);
  });

  it('rejects state-changing requests without the CSRF token, or with another browser’s', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    const before = await web.get('/keys');

    const none = await web.request('POST', '/keys', { name: 'no token' });
    assert.equal(none.status, 403);
    assert.match(none.text, /did not come from this site/);

    const other = new WebClient(srv.baseUrl);
    const foreign = await other.csrf('/login');
    const forged = await web.request('POST', '/keys', { name: 'forged', _csrf: foreign });
    assert.equal(forged.status, 403);

    const header = await web.request('POST', '/minds', { name: 'via header' }, { 'x-csrf-token': 'garbage' });
    assert.equal(header.status, 403);

    const after = await web.get('/keys');
    assert.equal((after.text.match(/<tr>/g) ?? []).length, (before.text.match(/<tr>/g) ?? []).length, 'no key was created');

    const good = await web.submit('/keys', { name: 'with token' }, '/keys');
    assert.equal(good.status, 201);
    assert.match(good.text, /msk_[0-9a-f]{8}_/);
  });

  it('logs out: the old cookie no longer opens a page', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    const stolen = web.cookieHeader();
    const out = await web.submit('/logout', {}, '/minds');
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/login');
    const replay = await fetch(`${srv.baseUrl}/minds`, { headers: { cookie: stolen }, redirect: 'manual' });
    assert.equal(replay.status, 302);
    assert.equal(replay.headers.get('location'), '/login?next=%2Fminds');
  });

  it('keeps accounts apart: another account’s mind and key read as unknown', async () => {
    const a = new WebClient(srv.baseUrl);
    await a.signUp(email(), PASSWORD);
    const created = await a.submit('/minds', { name: 'Private Person' }, '/minds');
    assert.equal(created.status, 303);
    const mindPath = created.headers.get('location')!;
    const keyPage = await a.submit('/keys', { name: 'mine' }, '/keys');
    const keyId = /action="\/keys\/([0-9a-f-]{36})\/revoke"/.exec(keyPage.text)?.[1];
    assert.ok(keyId);

    const b = new WebClient(srv.baseUrl);
    await b.signUp(email(), PASSWORD);
    assert.equal((await b.get(mindPath)).status, 404);
    assert.equal((await b.get(`${mindPath}/snapshots`)).status, 404);
    assert.equal((await b.submit(`${mindPath}/delete`, {}, '/minds')).status, 404);
    assert.equal((await b.submit(`/keys/${keyId}/revoke`, {}, '/keys')).status, 404);
    assert.equal((await a.get(mindPath)).status, 200, 'still there for its owner');
    assert.equal((await a.get('/minds/not-a-uuid')).status, 404);
  });

  it('creates, renames and deletes a mind through the forms', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    const created = await web.submit('/minds', { name: 'First Name' }, '/minds');
    const mindPath = created.headers.get('location')!;
    assert.match((await web.get('/minds')).text, /First Name/);
    const renamed = await web.submit(`${mindPath}/rename`, { name: 'Second Name' }, mindPath);
    assert.equal(renamed.status, 303);
    const page = await web.get(mindPath);
    assert.match(page.text, /<h1>Second Name<\/h1>/);
    // The playground before any snapshot: an htmx fragment with the reason, escaped, status 409.
    const token = await web.csrf(mindPath);
    const early = await web.request('POST', `${mindPath}/simulate`, { message: '<b>hi</b>' }, { 'hx-request': 'true', 'x-csrf-token': token });
    assert.equal(early.status, 409);
    assert.match(early.text, /^<p class="error" role="alert">[^<]+<\/p>\s*$/);
    const confirm = await web.get(`${mindPath}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Delete “Second Name”\?/);
    assert.match(confirm.text, /cannot be undone/);
    const deleted = await web.submit(`${mindPath}/delete`, {}, `${mindPath}/delete`);
    assert.equal(deleted.status, 303);
    assert.equal(deleted.headers.get('location'), '/minds');
    assert.equal((await web.get(mindPath)).status, 404);
    assert.doesNotMatch((await web.get('/minds')).text, /Second Name/);
  });

  it('answers malformed forms with 400, not 500', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    const token = await web.csrf('/minds');
    const empty = await web.request('POST', '/minds', { _csrf: token, name: '   ' });
    assert.equal(empty.status, 400);
    const json = await web.request('POST', '/minds', '{"name":', { 'content-type': 'application/json', 'x-csrf-token': token });
    assert.equal(json.status, 400);
    const huge = await web.request('POST', '/minds', { _csrf: token, name: 'x'.repeat(100_000) });
    assert.ok([400, 413].includes(huge.status), String(huge.status));
  });

  it('keeps the webhook pages from a standard account and opens them for pro', async () => {
    const web = new WebClient(srv.baseUrl);
    const me = email();
    await web.signUp(me, PASSWORD);
    const page = await web.get('/integrations/webhooks');
    assert.equal(page.status, 403);
    assert.match(page.text, /Webhooks are a Pro feature/);
    assert.match(page.text, /set-tier --account [0-9a-f-]{36} --tier pro/);
    assert.equal((await web.submit('/integrations/webhooks/credentials', {}, '/minds')).status, 403);
    assert.equal((await web.get('/integrations/webhooks/events')).status, 403);

    const accountId = /--account ([0-9a-f-]{36})/.exec(page.text)![1]!;
    await srv.admin.setTier(accountId, 'pro');
    assert.equal((await web.get('/integrations/webhooks')).status, 200);
    const made = await web.submit('/integrations/webhooks/credentials', {}, '/integrations/webhooks');
    assert.equal(made.status, 201);
    assert.match(made.text, /id="wh-password"[^>]*value="[^"]{20,}"/);
  });

  it('changes the password on the account page: other sessions end, this one goes on', async () => {
    const me = email();
    const web = new WebClient(srv.baseUrl);
    await web.signUp(me, PASSWORD);
    const other = new WebClient(srv.baseUrl);
    await other.logIn(me, PASSWORD);
    assert.equal((await other.get('/minds')).status, 200);
    const page = await web.get('/account');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(me));

    const wrong = await web.submit('/account/password', { current: 'not my password', password: 'a brand new password' }, '/account');
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /current password is wrong/);
    const weak = await web.submit('/account/password', { current: PASSWORD, password: 'short' }, '/account');
    assert.equal(weak.status, 400);
    assert.match(weak.text, /at least 10 characters/);

    const changed = await web.submit('/account/password', { current: PASSWORD, password: 'a brand new password' }, '/account');
    assert.equal(changed.status, 200);
    assert.match(changed.text, /Password changed/);
    assert.equal((await web.get('/minds')).status, 200, 'this browser stays logged in');
    assert.equal((await other.get('/minds')).status, 302, 'the other session has ended');
    assert.equal((await new WebClient(srv.baseUrl).logIn(me, PASSWORD)).status, 401);
    assert.equal((await new WebClient(srv.baseUrl).logIn(me, 'a brand new password')).status, 303);
  });

  it('logs requests without passwords, session ids or CSRF tokens', async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp(email(), PASSWORD);
    await web.submit('/keys', { name: 'logged?' }, '/keys');
    const seen = [...web.cookies.values()].map((v) => decodeURIComponent(v).split('.')[0]!);
    const out = srv.logs();
    assert.match(out, /"url":"\/keys"/, 'requests are logged at info');
    for (const secret of [PASSWORD, 'a brand new password', ...seen]) assert.ok(!out.includes(secret), `the log holds ${secret.slice(0, 6)}…`);
  });

  it('lets the owner log in once the operator sets a password', async () => {
    // Three CLI processes at once: a refused password, an unknown account and the real one.
    const [short, unknown, r] = await Promise.all([
      setPassword(srv, srv.ownerAccountId, 'short'),
      setPassword(srv, '00000000-0000-4000-8000-000000000000', PASSWORD),
      setPassword(srv, srv.ownerAccountId, PASSWORD),
    ]);
    assert.notEqual(short.code, 0);
    assert.match(short.stderr, /at least 10 characters/);
    assert.equal(unknown.code, 1);

    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { accountId: string; email: string };
    assert.equal(out.accountId, srv.ownerAccountId);

    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.logIn(out.email, PASSWORD)).status, 303);
    const keys = await web.get('/keys');
    assert.match(keys.text, /tier-pro/);

    // A new password (the same service call as the CLI's) ends the sessions opened with the old one.
    await srv.admin.setPassword(srv.ownerAccountId, `${PASSWORD}!`);
    assert.equal((await web.get('/keys')).status, 302);
  });
});

describe('session expiry, https cookies and password guessing', () => {
  let srv: Service;
  const clock = testClock();
  before(async () => {
    // Behind a TLS-terminating proxy: it says so with X-Forwarded-Proto, trusted with TRUST_PROXY.
    srv = await startService({ SESSION_TTL_SECONDS: '3', TRUST_PROXY: 'true', LOGIN_RATE_LIMIT: '4' }, { rt: clock });
  });
  after(() => srv?.close());

  it('marks cookies Secure behind https and ends the session after SESSION_TTL_SECONDS', async () => {
    const web = new WebClient(srv.baseUrl);
    const token = /name="_csrf" value="([^"]+)"/.exec((await web.request('GET', '/signup', undefined, { 'x-forwarded-proto': 'https' })).text)![1]!;
    const r = await web.request('POST', '/signup', { _csrf: token, email: email(), password: PASSWORD }, { 'x-forwarded-proto': 'https' });
    assert.equal(r.status, 303);
    const set = r.headers.getSetCookie();
    assert.ok(set.some((c) => c.startsWith('mindsim_session=')));
    for (const c of set) assert.match(c, /; Secure/i, c);
    assert.equal((await web.request('GET', '/minds', undefined, { 'x-forwarded-proto': 'https' })).status, 200);
    clock.advance(60_000); // the service's clock, well past SESSION_TTL_SECONDS (the session's expiry was set on the real one)
    const expired = await fetch(`${srv.baseUrl}/minds`, {
      headers: { cookie: web.cookieHeader(), 'x-forwarded-proto': 'https' },
      redirect: 'manual',
    });
    assert.equal(expired.status, 302);
    assert.match(expired.headers.get('location') ?? '', /^\/login/);
  });

  it('limits log-in attempts per client address with a clear 429', async () => {
    const target = email();
    const web = new WebClient(srv.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await web.logIn(target, `guess number ${i}`)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    const last = await web.logIn(target, 'one more guess');
    assert.equal(last.status, 429);
    assert.match(last.text, /Too many attempts from your address/);
    // Another address (through the trusted proxy) is not held back by these guesses.
    const token = await web.csrf('/login');
    const other = await web.request('POST', '/login', { _csrf: token, email: target, password: 'x'.repeat(12) }, { 'x-forwarded-for': '198.51.100.7' });
    assert.equal(other.status, 401);
  });
});
