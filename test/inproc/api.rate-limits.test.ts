import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { RateLimits, type RateLimitCounter, type RateLimitStore } from '../../src/domain/rate-limits.ts';
import type { Runtime } from '../../src/kernel/runtime.ts';
import { UsageService } from '../../src/domain/usage.ts';
import { openPostgres } from '../../src/store/db/postgres.ts';
import { makeRepos } from '../../src/store/db/repos/index.ts';
import { openSqlite } from '../../src/store/db/sqlite.ts';
import { openRateLimitStore } from '../../src/store/rate-limit-stores.ts';
import { usageRows } from '../../testkit/database.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { REDIS_SKIP, startRedis } from '../../testkit/redis.ts';
import { client, type Reply } from '../../testkit/http.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { waitUntil } from '../../testkit/wait.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-rl-'));
const nowSeconds = () => Math.floor(Date.now() / 1000);
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Rate limits and the usage meter, in-process over real HTTP (raw requests: the headers on every
 * kind of answer are what is tested). The usage counts written on SIGTERM: processes.test.ts.
 */
const account = (srv: Service, email: string, tier: 'standard' | 'pro') => srv.admin.createAccount(email, tier);

const limitHeaders = (r: Reply) => ({
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
  reset: Number(r.headers.get('x-ratelimit-reset')),
});

function assertResetSoon(r: Reply) {
  const reset = Number(r.headers.get('x-ratelimit-reset'));
  assert.ok(Number.isInteger(reset), `X-RateLimit-Reset is Unix seconds: ${r.headers.get('x-ratelimit-reset')}`);
  assert.ok(reset >= nowSeconds() && reset <= nowSeconds() + 61, `reset ${reset} within the next minute of ${nowSeconds()}`);
}

function assertLimited(r: Reply, limit: number) {
  assert.equal(r.status, 429, JSON.stringify(r.body));
  assert.equal(r.body.code, 'RATE_LIMITED');
  assert.match(r.body.message, new RegExp(`${limit} requests per minute`));
  const after = Number(r.headers.get('retry-after'));
  assert.ok(Number.isInteger(after) && after >= 1 && after <= 60, `Retry-After ${r.headers.get('retry-after')}`);
  assert.equal(r.body.retryAfter, after);
  assert.equal(r.body.error, 'Too Many Requests');
  assert.equal(r.headers.get('x-ratelimit-limit'), String(limit));
  assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
  assertResetSoon(r);
  assert.ok(r.headers.get('x-request-id'));
}


describe('per-key rate limits on the public API (memory store)', { concurrency: false }, () => {
  let srv: Service;
  let std: { accountId: string; apiKey: string };

  before(async () => {
    srv = await startService({ RATE_LIMIT_STANDARD: '3', RATE_LIMIT_PRO: '5', API_KEY_CACHE_MS: '0', USAGE_FLUSH_MS: '200', TRUST_PROXY: 'true' });
    std = await account(srv, 'standard@example.com', 'standard');
  });
  after(() => srv?.close());

  it('sends Limit, a decreasing Remaining and Reset (Unix seconds) on every API response, errors included', async () => {
    const api = client(srv.api, std.apiKey);
    const replies = [
      await api.get('/models'),
      await api.get('/minds/00000000-0000-4000-8000-000000000000'),
      await api.post('/minds', { name: 42 }),
    ];
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 404, 400],
    );
    assert.deepEqual(
      replies.map((r) => [limitHeaders(r).limit, limitHeaders(r).remaining]),
      [
        ['3', '2'],
        ['3', '1'],
        ['3', '0'],
      ],
    );
    for (const r of replies) assertResetSoon(r);
    const resets = replies.map((r) => limitHeaders(r).reset);
    assert.ok(Math.max(...resets) - Math.min(...resets) <= 1, `one window: ${resets.join(', ')}`);
  });

  it('answers 429 rate_limited with Retry-After beyond the limit, before reading the body', async () => {
    const api = client(srv.api, std.apiKey);
    assertLimited(await api.get('/models'), 3);
    assertLimited(await api.post('/minds', { name: 'Not created' }), 3);
    // Nothing was created by the refused request.
    const { apiKey } = await srv.admin.createApiKey(std.accountId);
    assert.deepEqual(await srv.sdk(apiKey).minds.list().all(), []);
  });

  it('counts requests without a valid key per client address at the standard limit, headers on the 401s', async () => {
    // Through the trusted proxy each test address is its own client (no other test shares it).
    const from = (ip: string, key: string) => client(srv.api, key).call('GET', '/models', undefined, { 'x-forwarded-for': ip });
    const first = await from('203.0.113.5', 'msk_00000000_wrong');
    assert.equal(first.status, 401);
    assert.equal(first.body.code, 'AUTH_FAILED');
    assert.equal(first.body.details.reason, 'invalid_api_key');
    assert.deepEqual([limitHeaders(first).limit, limitHeaders(first).remaining], ['3', '2']);
    const missing = await fetch(`${srv.api}/models`, { headers: { 'x-forwarded-for': '203.0.113.5' } });
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('x-ratelimit-remaining'), '1');
    assert.equal((await from('203.0.113.5', 'msk_00000000_guess')).status, 401);
    const refused = await from('203.0.113.5', 'msk_00000000_again');
    assertLimited(refused, 3);
    assert.match(refused.body.message, /without a valid API key/);
    // Another address, and a valid key from the same address, are counted apart.
    assert.equal((await from('203.0.113.6', 'msk_00000000_wrong')).status, 401);
    const fresh = await srv.admin.createApiKey(std.accountId);
    assert.equal((await from('203.0.113.5', fresh.apiKey)).status, 200);
  });

  it('counts MCP calls in the same per-key window as the API, with the headers', async () => {
    const { apiKey } = await srv.admin.createApiKey(std.accountId);
    const mcp = () =>
      fetch(`${srv.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const first = await mcp();
    assert.equal(first.status, 200);
    assert.deepEqual([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')], ['3', '2']);
    assert.ok(Number(first.headers.get('x-ratelimit-reset')) > nowSeconds());
    const api = await client(srv.api, apiKey).get('/models');
    assert.equal(limitHeaders(api).remaining, '1', 'the API call counts in the same window');
    assert.equal((await mcp()).status, 200);
    const refused = await mcp();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  });

  it('counts each API key separately', async () => {
    const created = await srv.admin.createApiKey(std.accountId);
    const second = client(srv.api, created.apiKey);
    const r = await second.get('/models');
    assert.equal(r.status, 200);
    assert.equal(limitHeaders(r).remaining, '2');
    assertLimited(await client(srv.api, std.apiKey).get('/models'), 3);
  });

  it('gives the pro tier its own limit', async () => {
    const api = client(srv.api, srv.apiKey); // the owner account is pro
    const seen: Array<string | null> = [];
    for (let i = 0; i < 5; i++) {
      const r = await api.get('/models');
      assert.equal(r.status, 200);
      assert.equal(limitHeaders(r).limit, '5');
      seen.push(limitHeaders(r).remaining);
    }
    assert.deepEqual(seen, ['4', '3', '2', '1', '0']);
    assertLimited(await api.get('/models'), 5);
  });

  it('applies a tier change to the running window at once (API_KEY_CACHE_MS=0)', async () => {
    const b = await account(srv, 'upgrade@example.com', 'standard');
    const api = client(srv.api, b.apiKey);
    for (let i = 0; i < 3; i++) assert.equal((await api.get('/models')).status, 200);
    assertLimited(await api.get('/models'), 3);
    await srv.admin.setTier(b.accountId, 'pro');
    const r = await api.get('/models'); // the 5th request of the window, within pro's 5
    assert.equal(r.status, 200);
    assert.equal(limitHeaders(r).limit, '5');
    assert.equal(limitHeaders(r).remaining, '0');
    assertLimited(await api.get('/models'), 5);
  });

  it('meters every authenticated response per account and UTC day, refused ones included', async () => {
    const c = await account(srv, 'metered@example.com', 'pro');
    const api = client(srv.api, c.apiKey);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await api.get('/models')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    await client(srv.api, 'msk_00000000_wrong').get('/models'); // not this account's, not counted
    // A response is counted once it is sent (after the client has it): flush until all n are written, then read.
    const settled = async (n: number) => {
      const total = () => usageRows(srv.dataDir, c.accountId).reduce((a, r) => a + r.requests, 0);
      await waitUntil(async () => (await srv.ctx.services.usage.flush(), total() >= n), { what: () => `${n} requests metered (${total()} so far)` });
      return usageRows(srv.dataDir, c.accountId);
    };
    assert.deepEqual(await settled(7), [{ day: today(), requests: 7 }]);
    await api.get('/models');
    assert.deepEqual(await settled(8), [{ day: today(), requests: 8 }], 'flushes add to the day');
  });
});

describe('UsageService and RateLimits.window, in process', () => {
  const at = (isoTime: string): Runtime => ({ now: () => new Date(isoTime), newId: () => 'x', randomBytes: (n) => Buffer.alloc(n) });

  it('daily(): the last 30 UTC days oldest first, zero-filled, with the counts not yet flushed', async () => {
    const db = await openSqlite(tmp());
    const repos = makeRepos(db);
    const usage = new UsageService(repos.usage, at('2026-11-22T23:59:00Z'), 600_000);
    try {
      await repos.usage.add([
        { account_id: 'a', day: '2026-10-23', requests: 50 }, // 31 days ago: outside the 30
        { account_id: 'a', day: '2026-10-24', requests: 7 },
        { account_id: 'b', day: '2026-11-22', requests: 9 },
      ]);
      for (let i = 0; i < 3; i++) usage.record('a');
      await usage.flush();
      for (let i = 0; i < 2; i++) usage.record('a');
      const days = await usage.daily('a');
      assert.equal(days.length, 30);
      assert.deepEqual(days[0], { day: '2026-10-24', requests: 7 });
      assert.deepEqual(days[29], { day: '2026-11-22', requests: 5 });
      assert.equal(days.slice(1, 29).every((d) => d.requests === 0), true);
      assert.deepEqual((await usage.daily('a', 2)).map((d) => d.day), ['2026-11-21', '2026-11-22']);
      assert.deepEqual(await usage.daily('nobody', 1), [{ day: '2026-11-22', requests: 0 }]);
      await usage.close();
      assert.deepEqual(await repos.usage.range('a', '2026-11-22', '2026-11-22'), [{ day: '2026-11-22', requests: 5 }]);
    } finally {
      await db.destroy();
    }
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    let fail = true;
    const added: unknown[] = [];
    const repo = {
      add: async (rows: unknown[]) => {
        if (fail) throw new Error('database away');
        added.push(...rows);
      },
      range: async () => [],
    };
    const usage = new UsageService(repo as never, at('2026-11-22T10:00:00Z'), 600_000);
    usage.record('a');
    await assert.rejects(usage.flush(), /database away/);
    usage.record('a');
    assert.deepEqual((await usage.daily('a', 1))[0], { day: '2026-11-22', requests: 2 });
    fail = false;
    await usage.close();
    assert.deepEqual(added, [{ account_id: 'a', day: '2026-11-22', requests: 2 }]);
  });

  const incr = (store: RateLimitStore, key: string) =>
    new Promise<RateLimitCounter>((resolve, reject) => store.incr(key, (e, r) => (e || !r ? reject(e) : resolve(r)), 60_000, 3));

  async function windowContract(store: RateLimitStore) {
    const limits = new RateLimits({ enabled: true, perMinute: { standard: 3, pro: 5 } }, store, 'test');
    const key = `key-${Math.random()}`;
    assert.deepEqual(await limits.window(key, 'standard'), { limit: 3, used: 0, remaining: 3, resetAt: null });
    assert.equal((await incr(store, key)).current, 1);
    const second = await incr(store, key);
    assert.equal(second.current, 2);
    assert.ok(second.ttl > 0 && second.ttl <= 60_000);
    const w = await limits.window(key, 'standard');
    assert.equal(w.used, 2);
    assert.equal(w.remaining, 1);
    const reset = Date.parse(w.resetAt ?? '');
    assert.ok(reset > Date.now() && reset <= Date.now() + 60_000, w.resetAt ?? 'null');
    assert.equal((await limits.window(key, 'pro')).remaining, 3, 'peeking does not count');
    for (let i = 0; i < 3; i++) await incr(store, key);
    assert.deepEqual({ ...(await limits.window(key, 'standard')), resetAt: null }, { limit: 3, used: 5, remaining: 0, resetAt: null });
  }

  it('window() peeks at a key of the memory store', async () => {
    const { store } = openRateLimitStore({ enabled: true, perMinute: { standard: 3, pro: 5 }, store: 'memory', redisUrl: undefined }, null as never, pino({ level: 'silent' }));
    await windowContract(store);
  });

  it('window() peeks at a key of the database store (SQLite); an expired window starts afresh', async () => {
    const db = await openSqlite(tmp());
    try {
      const repos = makeRepos(db);
      const { store } = openRateLimitStore({ enabled: true, perMinute: { standard: 3, pro: 5 }, store: 'database', redisUrl: undefined }, repos.rateLimitWindows, pino({ level: 'silent' }));
      await windowContract(store);
      const t = Date.now();
      assert.deepEqual(await repos.rateLimitWindows.hit('old', 1000, t - 5000), { hits: 1, resetAt: t - 4000 });
      assert.deepEqual(await repos.rateLimitWindows.hit('old', 1000, t - 4500), { hits: 2, resetAt: t - 4000 });
      assert.equal(await repos.rateLimitWindows.peek('old', t), null);
      assert.deepEqual(await repos.rateLimitWindows.hit('old', 60_000, t), { hits: 1, resetAt: t + 60_000 });
    } finally {
      await db.destroy();
    }
  });

  it('window() peeks at a key of the database store (PostgreSQL)', { skip: PG_SKIP }, async () => {
    const pgdb = await createDatabase();
    const db = await openPostgres(pgdb.url);
    try {
      const { store } = openRateLimitStore({ enabled: true, perMinute: { standard: 3, pro: 5 }, store: 'database', redisUrl: undefined }, makeRepos(db).rateLimitWindows, pino({ level: 'silent' }));
      await windowContract(store);
      // Concurrent hits on one key from many connections: every one counted exactly once.
      const repo = makeRepos(db).rateLimitWindows;
      const hits = await Promise.all(Array.from({ length: 40 }, () => repo.hit('busy', 60_000, Date.now())));
      assert.deepEqual(hits.map((h) => h.hits).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1));
    } finally {
      await db.destroy();
      await pgdb.drop();
    }
  });

  it('window() when the limiter is off: the limit, nothing used', async () => {
    const { store } = openRateLimitStore({ enabled: false, perMinute: { standard: 3, pro: 5 }, store: 'memory', redisUrl: undefined }, null as never, pino({ level: 'silent' }));
    const limits = new RateLimits({ enabled: false, perMinute: { standard: 3, pro: 5 } }, store, 'memory');
    assert.deepEqual(await limits.window('k', 'pro'), { limit: 5, used: 0, remaining: 5, resetAt: null });
  });
});

/**
 * Two API services on one shared store, each with its own limiter over it as two processes would
 * have: the limit of a key holds across them.
 */
async function acrossTwoProcesses(env: Record<string, string>) {
  const limits = { RATE_LIMIT_STANDARD: '4', RATE_LIMIT_PRO: '6' };
  const one = await startService({ ...env, ...limits });
  let two: Service | null = null;
  try {
    two = await startService({ ...env, ...limits, DATA_DIR: one.dataDir, RUN_WORKER: 'false' });
    const { apiKey } = await account(one, 'shared@example.com', 'standard');
    const a = client(one.api, apiKey);
    const b = client(two.api, apiKey);
    const replies = [await a.get('/models'), await b.get('/models'), await a.get('/models'), await b.get('/models')];
    assert.deepEqual(
      replies.map((r) => [r.status, limitHeaders(r).remaining]),
      [
        [200, '3'],
        [200, '2'],
        [200, '1'],
        [200, '0'],
      ],
    );
    const resets = replies.map((r) => limitHeaders(r).reset);
    assert.ok(Math.max(...resets) - Math.min(...resets) <= 1, `one window across processes: ${resets.join(', ')}`);
    assertLimited(await a.get('/models'), 4);
    assertLimited(await b.get('/models'), 4);
    // The owner key (pro) is counted apart, in the same store.
    const owner = await client(two.api, one.apiKey).get('/models');
    assert.equal(owner.status, 200);
    assert.deepEqual([limitHeaders(owner).limit, limitHeaders(owner).remaining], ['6', '5']);
  } finally {
    await two?.close();
    await one.close();
  }
}

describe('the limit across API processes', () => {
  it('holds with RATE_LIMIT_STORE=database on one SQLite file', async () => {
    await acrossTwoProcesses({ RATE_LIMIT_STORE: 'database' });
  });

  it('holds on one PostgreSQL database (the default store with DATABASE_URL)', { skip: PG_SKIP }, async () => {
    const db: TestDatabase = await createDatabase();
    try {
      await acrossTwoProcesses({ DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });

  it('holds with Redis (the default store with REDIS_URL)', { skip: REDIS_SKIP }, async () => {
    const redis = await startRedis();
    try {
      await acrossTwoProcesses({ REDIS_URL: redis.url });
    } finally {
      await redis.stop();
    }
  });
});

describe('the database store takes requests in blocks', () => {
  const counter = (store: RateLimitStore, key: string, max: number) =>
    new Promise<RateLimitCounter>((resolve, reject) => store.incr(key, (e, r) => (e || !r ? reject(e) : resolve(r)), 60_000, max));

  /** The store over a repository whose writes are counted. */
  function counted(repo: ReturnType<typeof makeRepos>['rateLimitWindows']) {
    let writes = 0;
    const spy = Object.create(repo) as typeof repo;
    spy.hit = (...args: Parameters<typeof repo.hit>) => {
      writes += 1;
      return repo.hit(...args);
    };
    const settings = { enabled: true, perMinute: { standard: 3, pro: 5 }, store: 'database' as const, redisUrl: undefined };
    return { store: openRateLimitStore(settings, spy, pino({ level: 'silent' })).store, writes: () => writes };
  }

  it('counts every request exactly, with far fewer writes than requests, concurrent ones included', async () => {
    const db = await openSqlite(tmp());
    try {
      const { store, writes } = counted(makeRepos(db).rateLimitWindows);
      const sequential = [];
      for (let i = 0; i < 200; i++) sequential.push((await counter(store, 'k', 10_000)).current);
      assert.deepEqual(sequential, Array.from({ length: 200 }, (_, i) => i + 1));
      const concurrent = await Promise.all(Array.from({ length: 100 }, () => counter(store, 'k', 10_000)));
      assert.deepEqual(concurrent.map((r) => r.current).sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => 201 + i));
      assert.ok(writes() <= 6, `${writes()} writes for 300 requests`);
      const limits = new RateLimits({ enabled: true, perMinute: { standard: 10_000, pro: 10_000 } }, store, 'database');
      assert.equal((await limits.window('k', 'pro')).used, 300, 'the window shows requests, not blocks');
    } finally {
      await db.destroy();
    }
  });

  it('never lets more than the limit through across processes, and holds little back', async () => {
    const db = await openSqlite(tmp());
    try {
      const repo = makeRepos(db).rateLimitWindows;
      const processes = [counted(repo).store, counted(repo).store, counted(repo).store];
      const max = 160;
      const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => counter(processes[i % 3]!, 'shared', max)));
      const allowed = replies.filter((r) => r.current <= max).length;
      assert.ok(allowed <= max, `${allowed} let through`);
      assert.ok(allowed >= max - 3 * Math.floor(max / 16), `only ${allowed} of ${max} let through`);
      // Near the limit blocks shrink to one request: the last ones are counted one by one.
      const small = counted(repo);
      for (let i = 1; i <= 5; i++) assert.equal((await counter(small.store, 'tight', 5)).current, i);
      assert.equal(small.writes(), 5);
      assert.ok((await counter(small.store, 'tight', 5)).current > 5);
    } finally {
      await db.destroy();
    }
  });
});
