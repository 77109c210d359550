import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, startServer, type TestServer } from './support/server.ts';

let srv: TestServer;
before(async () => {
  srv = await startServer({ LOG_LEVEL: 'info' });
});
after(() => srv.stop());

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

async function account(tier: 'standard' | 'pro') {
  const r = await srv.admin('create-account', '--email', `${tier}-${Date.now()}@example.com`, '--tier', tier);
  assert.equal(r.code, 0, r.stderr);
  const { accountId, apiKey } = JSON.parse(r.stdout) as { accountId: string; apiKey: string };
  const w = await srv.admin('create-webhook-credentials', '--account', accountId);
  assert.equal(w.code, 0, w.stderr);
  const creds = JSON.parse(w.stdout) as { url: string; username: string; password: string };
  return { accountId, apiKey, creds };
}

const post = (url: string, body: string | undefined, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', body, headers });

describe('webhook receiver', () => {
  it('accepts any JSON from a Pro account and lists it newest first', async () => {
    const pro = await account('pro');
    assert.equal(pro.creds.url, `${srv.baseUrl}/webhook`);
    const h = { 'content-type': 'application/json', authorization: basic(pro.creds.username, pro.creds.password) };
    const payloads = [{ event: 'first', n: 1 }, [1, 2, 3], 'just a string', { nested: { deep: [true, null] } }];
    const ids: string[] = [];
    for (const p of payloads) {
      const r = await post(pro.creds.url, JSON.stringify(p), h);
      assert.equal(r.status, 200);
      const body = (await r.json()) as { received: boolean; id: string };
      assert.equal(body.received, true);
      ids.push(body.id);
    }
    const api = client(srv.api, pro.apiKey);
    const events = await api.get('/webhook-events');
    assert.equal(events.status, 200);
    assert.deepEqual(events.body.map((e: { id: string }) => e.id), [...ids].reverse());
    assert.deepEqual(events.body.map((e: { payload: unknown }) => e.payload), [...payloads].reverse());
    const page = await api.get('/webhook-events?limit=3');
    assert.equal(page.body.length, 3);
    assert.match(page.headers.get('link') ?? '', /rel="next"/);
    // another account sees none of them
    assert.deepEqual((await client(srv.api, srv.apiKey).get('/webhook-events')).body, []);
  });

  it('answers 401 with WWW-Authenticate: Basic for missing or wrong credentials', async () => {
    const pro = await account('pro');
    const url = pro.creds.url;
    for (const auth of [undefined, basic(pro.creds.username, 'wrong'), basic('nobody', 'x'), 'Basic !!!', 'Bearer abc']) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (auth) headers.authorization = auth;
      const r = await post(url, '{"a":1}', headers);
      assert.equal(r.status, 401);
      assert.match(r.headers.get('www-authenticate') ?? '', /^Basic/);
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'invalid_credentials');
    }
  });

  it('answers 403 pro_required for a standard account, until it is set to pro', async () => {
    const std = await account('standard');
    const h = { 'content-type': 'application/json', authorization: basic(std.creds.username, std.creds.password) };
    const r = await post(std.creds.url, '{"a":1}', h);
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'pro_required');
    assert.equal((await srv.admin('set-tier', '--account', std.accountId, '--tier', 'pro')).code, 0);
    assert.equal((await post(std.creds.url, '{"a":1}', h)).status, 200);
  });

  it('requires JSON: 415 for other types, 400 for invalid JSON, 413 beyond 1 MB', async () => {
    const pro = await account('pro');
    const auth = basic(pro.creds.username, pro.creds.password);
    const text = await post(pro.creds.url, 'hello', { 'content-type': 'text/plain', authorization: auth });
    assert.equal(text.status, 415);
    const none = await post(pro.creds.url, undefined, { authorization: auth });
    assert.equal(none.status, 415);
    const bad = await post(pro.creds.url, '{"a":', { 'content-type': 'application/json', authorization: auth });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { code: string } }).error.code, 'invalid_json');
    const big = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) });
    const huge = await post(pro.creds.url, big, { 'content-type': 'application/json', authorization: auth });
    assert.equal(huge.status, 413);
    const justUnder = JSON.stringify({ blob: 'x'.repeat(1024 * 1024 - 20) });
    assert.equal((await post(pro.creds.url, justUnder, { 'content-type': 'application/json; charset=utf-8', authorization: auth })).status, 200);
  });

  it('rotating credentials revokes the old password; logs never hold the password', async () => {
    const pro = await account('pro');
    const again = JSON.parse((await srv.admin('create-webhook-credentials', '--account', pro.accountId)).stdout) as {
      username: string;
      password: string;
    };
    const h = (u: string, p: string) => ({ 'content-type': 'application/json', authorization: basic(u, p) });
    assert.equal((await post(pro.creds.url, '{}', h(pro.creds.username, pro.creds.password))).status, 401);
    assert.equal((await post(pro.creds.url, '{}', h(again.username, again.password))).status, 200);
    assert.ok(!srv.output().includes(again.password));
  });
});

describe('operator CLI', () => {
  it('prints exactly one JSON object on success', async () => {
    const r = await srv.admin('create-account', '--email', 'cli@example.com', '--tier', 'standard');
    assert.equal(r.code, 0);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const acc = JSON.parse(lines[0] ?? '') as { accountId: string; apiKey: string };
    assert.match(acc.apiKey, /^msk_/);
    const key = JSON.parse((await srv.admin('create-api-key', '--account', acc.accountId)).stdout) as { apiKey: string; prefix: string };
    assert.ok(key.apiKey.startsWith(key.prefix));
    const tier = JSON.parse((await srv.admin('set-tier', '--account', acc.accountId, '--tier', 'pro')).stdout) as { tier: string };
    assert.equal(tier.tier, 'pro');
  });

  it('reports errors on stderr with a non-zero exit', async () => {
    const cases = [
      ['create-account', '--email', 'cli@example.com', '--tier', 'standard'],
      ['create-account', '--email', 'not-an-email', '--tier', 'pro'],
      ['create-account', '--email', 'x@example.com', '--tier', 'gold'],
      ['create-api-key', '--account', '00000000-0000-4000-8000-000000000000'],
      ['revoke-api-key', '--prefix', 'msk_ffffffff'],
      ['set-tier', '--account', 'nope', '--tier', 'pro'],
      ['bogus-command'],
      ['create-account', '--unknown-flag'],
    ];
    for (const args of cases) {
      const r = await srv.admin(...args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.ok(r.stderr.trim().length > 0, args.join(' '));
    }
  });
});
