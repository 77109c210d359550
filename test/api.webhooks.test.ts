import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAdmin } from '../testkit/process.ts';
import { startService, type Service } from '../testkit/service.ts';

/** The webhook receiver (raw HTTP: it is not part of the SDK) and the events through the SDK; the operator CLI as a process. */
let srv: Service;
before(async () => {
  srv = await startService({ LOG_LEVEL: 'info' });
});
after(() => srv?.close());

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

async function account(tier: 'standard' | 'pro') {
  const { accountId, apiKey } = await srv.admin.createAccount(`${tier}-${Date.now()}@example.com`, tier);
  const creds = await srv.admin.createWebhookCredentials(accountId);
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
    const sdk = srv.sdk(pro.apiKey);
    const events = await sdk.webhookEvents.list().all();
    assert.equal(sdk.last?.status, 200);
    assert.deepEqual(events.map((e) => e.id), [...ids].reverse());
    assert.deepEqual(events.map((e) => e.payload), [...payloads].reverse());
    const pages = sdk.webhookEvents.list({ limit: 3 }).pages()[Symbol.asyncIterator]();
    assert.equal((await pages.next()).value?.length, 3);
    assert.match(sdk.last?.headers.get('link') ?? '', /rel="next"/);
    await pages.return?.(undefined);
    // another account sees none of them
    assert.deepEqual(await srv.sdk().webhookEvents.list().all(), []);
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
      const body = (await r.json()) as { code: string; details: { reason: string } };
      assert.deepEqual([body.code, body.details.reason], ['AUTH_FAILED', 'invalid_credentials']);
    }
  });

  it('answers 403 pro_required for a standard account, until it is set to pro', async () => {
    const std = await account('standard');
    const h = { 'content-type': 'application/json', authorization: basic(std.creds.username, std.creds.password) };
    const r = await post(std.creds.url, '{"a":1}', h);
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { code: string }).code, 'PRO_REQUIRED');
    await srv.admin.setTier(std.accountId, 'pro');
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
    assert.equal(((await bad.json()) as { code: string }).code, 'INVALID_JSON');
    const big = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) });
    const huge = await post(pro.creds.url, big, { 'content-type': 'application/json', authorization: auth });
    assert.equal(huge.status, 413);
    const justUnder = JSON.stringify({ blob: 'x'.repeat(1024 * 1024 - 20) });
    assert.equal((await post(pro.creds.url, justUnder, { 'content-type': 'application/json; charset=utf-8', authorization: auth })).status, 200);
  });

  it('rotating credentials revokes the old password; logs never hold the password', async () => {
    const pro = await account('pro');
    const again = await srv.admin.createWebhookCredentials(pro.accountId);
    const h = (u: string, p: string) => ({ 'content-type': 'application/json', authorization: basic(u, p) });
    assert.equal((await post(pro.creds.url, '{}', h(pro.creds.username, pro.creds.password))).status, 401);
    assert.equal((await post(pro.creds.url, '{}', h(again.username, again.password))).status, 200);
    assert.ok(srv.logs().includes('"url":"/webhook"'), 'the requests are logged');
    assert.ok(!srv.logs().includes(again.password));
  });
});

describe('operator CLI', () => {
  // The CLI as the operator runs it, a process of its own, on the running service's data; the other
  // tests call the same services directly (srv.admin).
  const admin = (...args: string[]) => runAdmin(srv.env, ...args);
  const json = async <T>(...args: string[]): Promise<T> => {
    const r = await admin(...args);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as T;
  };

  it('prints exactly one JSON object on success', async () => {
    const r = await admin('create-account', '--email', 'cli@example.com', '--tier', 'standard');
    assert.equal(r.code, 0);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const acc = JSON.parse(lines[0] ?? '') as { accountId: string; apiKey: string };
    assert.match(acc.apiKey, /^msk_/);
    const key = await json<{ apiKey: string; prefix: string }>('create-api-key', '--account', acc.accountId);
    assert.ok(key.apiKey.startsWith(key.prefix));
    const tier = await json<{ tier: string }>('set-tier', '--account', acc.accountId, '--tier', 'pro');
    assert.equal(tier.tier, 'pro');
    // What the CLI did is what the running service sees.
    assert.equal((await srv.sdk(key.apiKey).models.list()).length, 2);
    const creds = await json<{ url: string; username: string; password: string }>('create-webhook-credentials', '--account', acc.accountId);
    assert.equal(creds.url, `${srv.baseUrl}/webhook`);
    const hook = await post(creds.url, '{"via":"cli"}', { 'content-type': 'application/json', authorization: basic(creds.username, creds.password) });
    assert.equal(hook.status, 200);
    assert.deepEqual(await json('revoke-api-key', '--prefix', key.prefix), { revoked: true, prefix: key.prefix });
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
    const replies = await Promise.all(cases.map((args) => admin(...args)));
    for (const [i, args] of cases.entries()) {
      const r = replies[i]!;
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      assert.ok(r.stderr.trim().length > 0, args.join(' '));
    }
  });
});
