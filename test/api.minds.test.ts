import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, rawRequest, startServer, type Client, type TestServer } from './support/server.ts';

let srv: TestServer;
let api: Client;

before(async () => {
  srv = await startServer({ LOG_LEVEL: 'info', API_KEY_CACHE_MS: '300' });
  api = client(srv.api, srv.apiKey);
});
after(() => srv.stop());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('first start and health', () => {
  it('prints an owner API key once and answers /healthz', async () => {
    assert.match(srv.apiKey, /^msk_[0-9a-f]{8}_/);
    assert.equal(srv.output().split(srv.apiKey).length, 2, 'the key is printed exactly once');
    const r = await fetch(`${srv.baseUrl}/healthz`);
    assert.equal(r.status, 200);
    assert.ok(r.headers.get('x-request-id'));
  });

  it('does not print the key again on restart, and keeps the data', async () => {
    const m = await api.post('/minds', { name: 'Survivor' });
    await srv.stop();
    const before = srv.output().length;
    await srv.start();
    assert.doesNotMatch(srv.output().slice(before), /msk_/);
    const got = await api.get(`/minds/${m.body.mind.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.name, 'Survivor');
  });
});

describe('minds', () => {
  it('creates a mind with its Default twin (200, objects with id/name/createdAt/updatedAt)', async () => {
    const r = await api.post('/minds', { name: 'Ada Lovelace' });
    assert.equal(r.status, 200);
    assert.match(r.body.mind.id, UUID);
    assert.equal(r.body.mind.name, 'Ada Lovelace');
    assert.match(r.body.mind.createdAt, ISO_Z);
    assert.match(r.body.mind.updatedAt, ISO_Z);
    assert.match(r.body.digitalTwin.id, UUID);
    assert.equal(r.body.digitalTwin.name, 'Default');
    assert.match(r.body.digitalTwin.createdAt, ISO_Z);
  });

  it('gets, renames and deletes a mind', async () => {
    const { body } = await api.post('/minds', { name: 'Temp' });
    const id = body.mind.id;
    const got = await api.get(`/minds/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.digitalTwins[0].id, body.digitalTwin.id);
    const renamed = await api.patch(`/minds/${id}`, { name: 'Renamed' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed');
    assert.ok(renamed.body.updatedAt >= body.mind.updatedAt);
    const del = await api.del(`/minds/${id}`);
    assert.equal(del.status, 204);
    assert.equal((await api.get(`/minds/${id}`)).status, 404);
    assert.equal((await api.del(`/minds/${id}`)).status, 404);
  });

  it('lists newest first as a plain array, paginated with limit/cursor and a Link header', async () => {
    const fresh = await startServer();
    try {
      const c = client(fresh.api, fresh.apiKey);
      const names = ['m1', 'm2', 'm3', 'm4', 'm5'];
      for (const name of names) await c.post('/minds', { name });
      const all = await c.get('/minds');
      assert.ok(Array.isArray(all.body));
      assert.deepEqual(all.body.map((m: { name: string }) => m.name), [...names].reverse());
      assert.equal(all.headers.get('link'), null);

      const seen: string[] = [];
      let url: string | null = `${fresh.api}/minds?limit=2`;
      let pages = 0;
      while (url) {
        const res: Response = await fetch(url, { headers: { authorization: `Bearer ${fresh.apiKey}` } });
        assert.equal(res.status, 200);
        const page = (await res.json()) as Array<{ name: string }>;
        assert.ok(page.length <= 2);
        seen.push(...page.map((m) => m.name));
        const link = res.headers.get('link');
        url = link ? (/<([^>]+)>; rel="next"/.exec(link)?.[1] ?? null) : null;
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, [...names].reverse());
    } finally {
      await fresh.stop();
    }
  });

  it('rejects bad pagination parameters with 400', async () => {
    assert.equal((await api.get('/minds?limit=0')).status, 400);
    assert.equal((await api.get('/minds?limit=201')).status, 400);
    assert.equal((await api.get('/minds?limit=abc')).status, 400);
    const bad = await api.get('/minds?cursor=not-a-cursor');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_cursor');
  });
});

describe('errors', () => {
  it('answers 401 without a key, with a wrong key, and with a revoked key', async () => {
    const none = await fetch(`${srv.api}/minds`);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'missing_api_key');
    const wrong = await client(srv.api, `msk_00000000_${'A'.repeat(43)}`).get('/minds');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_api_key');
    assert.equal((await client(srv.api, 'garbage').get('/minds')).status, 401);

    const created = await srv.admin('create-api-key', '--account', srv.ownerAccountId);
    const { apiKey, prefix } = JSON.parse(created.stdout) as { apiKey: string; prefix: string };
    assert.equal((await client(srv.api, apiKey).get('/minds')).status, 200);
    assert.equal((await srv.admin('revoke-api-key', '--prefix', prefix)).code, 0);
    // the server trusts a verified key for API_KEY_CACHE_MS (300 ms in this test) at most
    await new Promise((r) => setTimeout(r, 350));
    assert.equal((await client(srv.api, apiKey).get('/minds')).status, 401);
  });

  it('answers malformed JSON, wrong types and missing fields with 400 naming the fields', async () => {
    const bad = await api.call('POST', '/minds', '{"name": ', { 'content-type': 'application/json' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_json');
    const wrongType = await api.post('/minds', { name: 42 });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.error.code, 'validation_failed');
    assert.match(wrongType.body.error.message, /name/);
    const missing = await api.post('/minds', {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.fields[0].field, 'body.name');
    const empty = await api.post('/minds', { name: '   ' });
    assert.equal(empty.status, 400);
    const notJson = await api.call('POST', '/minds', 'name=x', { 'content-type': 'text/plain' });
    assert.equal(notJson.status, 415);
    const badId = await api.get('/minds/not-a-uuid');
    assert.equal(badId.status, 400);
  });

  it('answers oversize bodies with 413 and unknown routes with 404, all in one error shape', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
    const big = await rawRequest(`${srv.api}/minds`, 'POST', body, {
      authorization: `Bearer ${srv.apiKey}`,
      'content-type': 'application/json',
    });
    assert.equal(big.status, 413);
    assert.equal(JSON.parse(big.text).error.code, 'payload_too_large');
    const unknown = await api.get('/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'route_not_found');
    assert.ok(unknown.headers.get('x-request-id'));
    const unknownMind = await api.get('/minds/00000000-0000-4000-8000-000000000000');
    assert.equal(unknownMind.status, 404);
    assert.deepEqual(Object.keys(unknownMind.body.error).sort(), ['code', 'message']);
  });

  it("keeps accounts apart: another account's ids answer 404, never the data", async () => {
    const other = JSON.parse((await srv.admin('create-account', '--email', 'other@example.com', '--tier', 'standard')).stdout);
    const them = client(srv.api, other.apiKey);
    const mine = await api.post('/minds', { name: 'Private' });
    const id = mine.body.mind.id;
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
    assert.deepEqual((await them.get('/minds')).body, []);
    assert.equal((await api.get(`/minds/${id}`)).body.name, 'Private');
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
    const logLines = srv.output().split('\n').filter((l) => l.startsWith('{'));
    for (const line of logLines) assert.doesNotMatch(line, /msk_[0-9a-f]{8}_/);
  });
});
