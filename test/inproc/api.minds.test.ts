import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, rawRequest, type Client } from '../../testkit/http.ts';
import { failure, statusOf, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { testClock } from '../../testkit/clock.ts';

/** The minds routes, errors and docs, in-process through the typed SDK (raw HTTP for what it cannot send). */
let srv: Service;
const clock = testClock();
let sdk: TestSdk;
let api: Client;

before(async () => {
  srv = await startService({ LOG_LEVEL: 'info', API_KEY_CACHE_MS: '300' }, { rt: clock });
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
});
after(() => srv?.close());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('health', () => {
  // The owner key printed once on the first start, and not on a restart: processes.test.ts.
  it('answers /healthz with a request id', async () => {
    assert.match(srv.apiKey, /^msk_[0-9a-f]{8}_/);
    const r = await fetch(`${srv.baseUrl}/healthz`);
    assert.equal(r.status, 200);
    assert.ok(r.headers.get('x-request-id'));
  });
});

describe('minds', () => {
  it('creates a mind with its Default twin (200, objects with id/name/createdAt/updatedAt)', async () => {
    const body = await sdk.minds.create('Ada Lovelace');
    assert.equal(sdk.last?.status, 200);
    assert.match(body.mind.id, UUID);
    assert.equal(body.mind.name, 'Ada Lovelace');
    assert.match(body.mind.createdAt, ISO_Z);
    assert.match(body.mind.updatedAt, ISO_Z);
    assert.match(body.digitalTwin.id, UUID);
    assert.equal(body.digitalTwin.name, 'Default');
    assert.match(body.digitalTwin.createdAt, ISO_Z);
  });

  it('gets, renames and deletes a mind', async () => {
    const body = await sdk.minds.create('Temp');
    const id = body.mind.id;
    const got = await sdk.minds.get(id);
    assert.equal(got.digitalTwins[0]?.id, body.digitalTwin.id);
    const renamed = await sdk.minds.update(id, { name: 'Renamed' });
    assert.equal(renamed.name, 'Renamed');
    assert.ok(renamed.updatedAt >= body.mind.updatedAt);
    await sdk.minds.delete(id);
    assert.equal(sdk.last?.status, 204);
    assert.equal(await statusOf(sdk.minds.get(id)), 404);
    assert.equal(await statusOf(sdk.minds.delete(id)), 404);
  });

  it('lists newest first as {"minds": [...]} (the hosted envelope), paginated with limit/cursor and a Link header', async () => {
    const fresh = await startService();
    try {
      const c = client(fresh.api, fresh.apiKey);
      const names = ['m1', 'm2', 'm3', 'm4', 'm5'];
      for (const name of names) await fresh.sdk().minds.create(name);
      const all = await c.get('/minds');
      assert.deepEqual(Object.keys(all.body), ['minds']);
      assert.deepEqual(all.body.minds.map((m: { name: string }) => m.name), [...names].reverse());
      assert.equal(all.headers.get('link'), null);

      // Every page through the Link header, as the SDK follows it; the header's exact form checked once.
      assert.match((await c.get('/minds?limit=2')).headers.get('link') ?? '', /^<[^>]+>; rel="next"$/);
      const seen: string[] = [];
      let pages = 0;
      for await (const page of fresh.sdk().minds.list({ limit: 2 }).pages()) {
        assert.ok(page.length <= 2);
        seen.push(...page.map((m) => m.name));
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, [...names].reverse());
    } finally {
      await fresh.close();
    }
  });

  it('serves the same API under /api/mindsim (the hosted newer base), one implementation', async () => {
    const ms = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
    const made = await ms.post('/minds', { name: 'Both Prefixes' });
    assert.equal(made.status, 200);
    const id = made.body.mind.id as string;
    assert.equal((await api.get(`/minds/${id}`)).body.name, 'Both Prefixes');
    assert.equal((await ms.get(`/minds/${id}`)).body.name, 'Both Prefixes');
    const none = await fetch(`${srv.baseUrl}/api/mindsim/minds`);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { code: string }).code, 'AUTH_FAILED');
    assert.equal((await ms.get('/nope')).body.code, 'ROUTE_NOT_FOUND');
    const doc = (await (await fetch(`${srv.baseUrl}/api/mindsim/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(doc.paths['/api/public/v1/minds'], 'each operation is documented once, under /api/public/v1');
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/api/mindsim')));
  });

  it('rejects bad pagination parameters with 400', async () => {
    assert.equal((await api.get('/minds?limit=0')).status, 400);
    assert.equal((await api.get('/minds?limit=201')).status, 400);
    assert.equal((await api.get('/minds?limit=abc')).status, 400);
    const bad = await api.get('/minds?cursor=not-a-cursor');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'INVALID_CURSOR');
  });
});

describe('errors', () => {
  it('answers 401 without a key, with a wrong key, and with a revoked key', async () => {
    const none = await fetch(`${srv.api}/minds`);
    assert.equal(none.status, 401);
    const noneBody = (await none.json()) as { error: string; code: string; details: { reason: string }; requestId: string };
    assert.deepEqual([noneBody.error, noneBody.code, noneBody.details.reason], ['Unauthorized', 'AUTH_FAILED', 'missing_api_key']);
    assert.equal(noneBody.requestId, none.headers.get('x-request-id'));
    const wrong = await failure(srv.sdk(`msk_00000000_${'A'.repeat(43)}`).minds.list().all());
    assert.equal(wrong.status, 401);
    assert.equal(wrong.code, 'AUTH_FAILED');
    assert.equal(wrong.details?.reason, 'invalid_api_key');
    assert.equal(await statusOf(srv.sdk('garbage').minds.list().all()), 401);

    // (the operator CLI's own commands: the "operator CLI" tests of api.webhooks.test.ts)
    const { apiKey, prefix } = await srv.admin.createApiKey(srv.ownerAccountId);
    assert.equal(await statusOf(srv.sdk(apiKey).minds.list().all()), 200);
    await srv.admin.revokeApiKey(prefix);
    // the server trusts a verified key for API_KEY_CACHE_MS (300 ms in this test) at most: its clock moves past that
    clock.advance(301);
    assert.equal(await statusOf(srv.sdk(apiKey).minds.list().all()), 401);
  });

  it('answers malformed JSON, wrong types and missing fields with 400 naming the fields', async () => {
    const bad = await api.call('POST', '/minds', '{"name": ', { 'content-type': 'application/json' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'INVALID_JSON');
    const wrongType = await api.post('/minds', { name: 42 });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.code, 'VALIDATION_FAILED');
    assert.match(wrongType.body.message, /name/);
    const missing = await api.post('/minds', {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.details.fields[0].field, 'body.name');
    assert.equal(await statusOf(sdk.minds.create('   ')), 400);
    const notJson = await api.call('POST', '/minds', 'name=x', { 'content-type': 'text/plain' });
    assert.equal(notJson.status, 415);
    assert.equal(await statusOf(sdk.minds.get('not-a-uuid')), 400);
  });

  it('answers oversize bodies with 413 and unknown routes with 404, all in one error shape', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    const big = await rawRequest(`${srv.api}/minds`, 'POST', body, {
      authorization: `Bearer ${srv.apiKey}`,
      'content-type': 'application/json',
    });
    assert.equal(big.status, 413);
    assert.equal(JSON.parse(big.text).code, 'PAYLOAD_TOO_LARGE');
    const unknown = await api.get('/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'ROUTE_NOT_FOUND');
    assert.ok(unknown.headers.get('x-request-id'));
    const unknownMind = await api.get('/minds/00000000-0000-4000-8000-000000000000');
    assert.equal(unknownMind.status, 404);
    assert.deepEqual(Object.keys(unknownMind.body).sort(), ['code', 'error', 'message', 'requestId']);
    assert.equal(unknownMind.body.error, 'Not Found');
    assert.equal((await failure(sdk.minds.get('00000000-0000-4000-8000-000000000000'))).code, 'MIND_NOT_FOUND');
  });

  it("keeps accounts apart: another account's ids answer 404, never the data", async () => {
    const other = await srv.admin.createAccount('other@example.com', 'standard');
    const them = client(srv.api, other.apiKey);
    const id = (await sdk.minds.create('Private')).mind.id;
    for (const r of [
      await them.get(`/minds/${id}`),
      await them.patch(`/minds/${id}`, { name: 'stolen' }),
      await them.del(`/minds/${id}`),
      await them.get(`/minds/${id}/signed-url`),
      await them.get(`/minds/${id}/snapshots`),
      await them.post('/simulate', { mindId: id, scenario: { message: 'hi' } }),
    ]) {
      assert.equal(r.status, 404);
      assert.doesNotMatch(JSON.stringify(r.body), /Private/);
    }
    assert.deepEqual(await srv.sdk(other.apiKey).minds.list().all(), []);
    assert.equal((await sdk.minds.get(id)).name, 'Private');
  });

  it('echoes a client-provided X-Request-Id', async () => {
    const r = await api.call('GET', '/minds', undefined, { 'x-request-id': 'trace-123' });
    assert.equal(r.headers.get('x-request-id'), 'trace-123');
  });
});

describe('docs', () => {
  it('serves an OpenAPI 3.1 document generated from the schemas, and /docs', async () => {
    const r = await fetch(`${srv.api}/openapi.json`);
    assert.equal(r.status, 200);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
    assert.match(doc.openapi, /^3\.1/);
    for (const p of ['/api/public/v1/minds', '/api/public/v1/simulate', '/api/public/v1/minds/{mindId}/signed-url', '/api/public/v1/minds/{mindId}/snapshots/{snapshotId}/status', '/webhook']) {
      assert.ok(doc.paths[p], `${p} documented`);
    }
    const docs = await fetch(`${srv.baseUrl}/docs`, { redirect: 'follow' });
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});

describe('logs', () => {
  it('never contain API keys', () => {
    const logLines = srv.logs().split('\n').filter((l) => l.startsWith('{'));
    assert.ok(logLines.length > 5, 'requests are logged at info');
    for (const line of logLines) assert.doesNotMatch(line, /msk_[0-9a-f]{8}_/);
  });
});
