import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { LATENCY_ACCURACY, addToHistogram, latencyBucket, quantiles } from '../../src/domain/latency-histogram.ts';
import { UsageService } from '../../src/domain/usage.ts';
import { meterUsage } from '../../src/http/plugins/rate-limit.ts';
import type { Runtime } from '../../src/kernel/runtime.ts';
import { makeRepos } from '../../src/store/db/repos/index.ts';
import { openSqlite } from '../../src/store/db/sqlite.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { client, fileForm, waitForSnapshot, type Reply } from '../../testkit/http.ts';
import { PG_SKIP, createDatabase } from '../../testkit/scale.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';
import { waitUntil } from '../../testkit/wait.ts';

/**
 * GET /usage: the calling key's figures (HOSTED-API.md 3.17) from the usage meter, per key and UTC
 * day; latency percentiles from merged log-scale histograms, within LATENCY_ACCURACY of the truth.
 */
let srv: Service;
const NIL = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => day(Date.now());
const vtt = teamsVtt(sampleInterview());

before(async () => {
  srv = await startService({ LOG_LEVEL: 'info' });
});
after(() => srv?.close());

/** Raw calls with a key, each with its own request id, their statuses kept (to count what the meter should). */
function tracked(api: string, key: string, tag: string) {
  const c = client(api, key);
  const statuses: number[] = [];
  const ids: string[] = [];
  const call = async (method: string, p: string, body?: unknown): Promise<Reply> => {
    const id = `${tag}-${ids.length + 1}`;
    ids.push(id);
    const r = await c.call(method, p, body, { 'x-request-id': id });
    statuses.push(r.status);
    return r;
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown) => call('POST', p, body),
    ids,
    expected: () => ({ successCount: statuses.filter((s) => s < 400).length, errorCount: statuses.filter((s) => s >= 400).length, totalCount: statuses.length }),
  };
}

/** The latencies Fastify logged for these request ids (the meter reads the same `reply.elapsedTime`). */
function loggedLatencies(ids: string[]): number[] {
  const wanted = new Set(ids);
  const found: number[] = [];
  for (const line of srv.logs().split('\n')) {
    if (!line.includes('"request completed"')) continue;
    const entry = JSON.parse(line) as { reqId: string; responseTime: number };
    if (wanted.has(entry.reqId)) found.push(entry.responseTime);
  }
  assert.equal(found.length, ids.length, 'every request logged');
  return found.sort((a, b) => a - b);
}

const nearestRank = (sorted: number[], q: number) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] ?? 0;
const within = (reported: number, truth: number, what: string) =>
  assert.ok(Math.abs(reported - truth) <= truth * LATENCY_ACCURACY + 0.006, `${what}: ${reported} vs measured ${truth}`);

/** A mind with one completed snapshot, made with the tracked client. */
async function mindWithSnapshot(t: ReturnType<typeof tracked>, name: string) {
  const created = (await t.post('/minds', { name })).body;
  const started = await t.post(`/minds/${created.mind.id}/snapshots`, fileForm(vtt, 'interview.vtt', 'text/vtt', { digitalTwinId: created.digitalTwin.id }));
  assert.equal(started.status, 200, JSON.stringify(started.body));
  await waitUntil(
    async () => {
      const s = await t.get(`/minds/${created.mind.id}/snapshots/${started.body.mindAssessmentId}/status`);
      assert.notEqual(s.body.status, 'failed');
      return s.body.status === 'completed';
    },
    { what: `${name}'s snapshot completed` },
  );
  return created.mind.id as string;
}

describe('GET /usage', () => {
  let a: { accountId: string; apiKey: string };
  before(async () => {
    a = await srv.admin.createAccount('usage-a@example.com', 'standard');
  });

  it('counts a known sequence for the calling key; percentiles within 2% of the measured latencies', async () => {
    const t = tracked(srv.api, a.apiKey, 'usage-a');
    for (let i = 0; i < 5; i++) assert.equal((await t.get('/models')).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await t.get(`/minds/${NIL}`)).status, 404);
    assert.equal((await t.post('/minds', {})).status, 400);
    const first = await mindWithSnapshot(t, 'Sam Okafor');
    const second = await mindWithSnapshot(t, 'Sam Okafor Again');
    for (const mindId of [first, first, second]) assert.equal((await t.post('/simulate', { mindId, scenario: { message: 'How do you start your day?' } })).status, 200);
    assert.equal((await t.post('/simulate', { mindId: NIL, scenario: { message: 'Hi' } })).status, 404, 'a failed simulation is not one');
    const unknownArtifact = new FormData();
    unknownArtifact.append('artifactId', NIL);
    assert.equal((await t.post(`/minds/${first}/snapshots`, unknownArtifact)).status, 404, 'a failed snapshot is not one');

    const expected = t.expected();
    const r = await client(srv.api, a.apiKey).get('/usage');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const u = r.body;
    assert.deepEqual(Object.keys(u).sort(), [
      'averageLatency', 'errorCount', 'from', 'maxLatency', 'medianLatency', 'minLatency', 'numberOfCoresReprocessed',
      'numberOfPsychometricsRequests', 'numberOfSimulatedTwins', 'numberOfSimulations', 'numberOfSnapshotsCreated',
      'numberOfSnapshotsTotal', 'p90Latency', 'p95Latency', 'p999Latency', 'p99Latency', 'successCount', 'to', 'totalCount',
    ]);
    assert.deepEqual({ from: u.from, to: u.to }, { from: day(Date.now() - 29 * DAY_MS), to: today() }, 'the last 30 days by default');
    assert.deepEqual({ successCount: u.successCount, errorCount: u.errorCount, totalCount: u.totalCount }, expected);
    assert.deepEqual(
      [u.numberOfSimulations, u.numberOfSimulatedTwins, u.numberOfSnapshotsCreated, u.numberOfSnapshotsTotal, u.numberOfCoresReprocessed, u.numberOfPsychometricsRequests],
      [3, 2, 2, 2, 0, 0],
    );

    const measured = loggedLatencies(t.ids);
    within(u.minLatency, measured[0] ?? 0, 'min');
    within(u.maxLatency, measured[measured.length - 1] ?? 0, 'max');
    assert.ok(Math.abs(u.averageLatency - measured.reduce((s, v) => s + v, 0) / measured.length) <= 0.006, 'the average is exact');
    const pairs: Array<[string, number]> = [['medianLatency', 0.5], ['p90Latency', 0.9], ['p95Latency', 0.95], ['p99Latency', 0.99], ['p999Latency', 0.999]];
    for (const [field, q] of pairs) within(u[field], nearestRank(measured, q), field);
    for (let i = 1; i < pairs.length; i++) assert.ok(u[pairs[i]?.[0] ?? ''] >= u[pairs[i - 1]?.[0] ?? ''], 'percentiles grow');

    // The same figures under /api/mindsim; the /usage request before counts now too.
    const again = await client(`${srv.baseUrl}/api/mindsim`, a.apiKey).get('/usage');
    assert.equal(again.status, 200);
    assert.equal(again.body.successCount, u.successCount + 1);
    assert.equal(again.body.numberOfSimulations, 3);
  });

  it("another key of the account and another account see their own numbers; the account's snapshots are shared", async () => {
    const a2 = await srv.admin.createApiKey(a.accountId, 'second');
    const t2 = tracked(srv.api, a2.apiKey, 'usage-a2');
    await t2.get('/models');
    await t2.get(`/minds/${NIL}`);
    const u2 = (await client(`${srv.baseUrl}/api/mindsim`, a2.apiKey).get('/usage')).body;
    assert.deepEqual([u2.successCount, u2.errorCount, u2.numberOfSimulations, u2.numberOfSnapshotsCreated, u2.numberOfSimulatedTwins], [1, 1, 0, 0, 0]);
    assert.equal(u2.numberOfSnapshotsTotal, 2, "the key's account, whichever key made them");
    within(u2.maxLatency, loggedLatencies(t2.ids)[1] ?? 0, 'max of the second key');

    const b = await srv.admin.createAccount('usage-b@example.com', 'standard');
    const tb = tracked(srv.api, b.apiKey, 'usage-b');
    await tb.get('/models');
    const ub = (await client(srv.api, b.apiKey).get('/usage')).body;
    assert.deepEqual([ub.successCount, ub.errorCount, ub.numberOfSimulations, ub.numberOfSnapshotsTotal], [1, 0, 0, 0]);
  });

  it('takes a window of UTC days: defaults, bounds, and clear 400s', async () => {
    const c = client(srv.api, a.apiKey);
    const t = Date.now();
    assert.deepEqual(pick((await c.get(`/usage?from=${day(t - 3 * DAY_MS)}`)).body), { from: day(t - 3 * DAY_MS), to: today() });
    assert.deepEqual(pick((await c.get('/usage?to=2026-03-31')).body), { from: '2026-03-02', to: '2026-03-31' });
    const past = (await c.get('/usage?from=2001-01-01&to=2001-12-31')).body;
    assert.deepEqual([past.totalCount, past.averageLatency, past.p99Latency, past.minLatency, past.numberOfSimulations], [0, 0, 0, 0, 0], 'nothing: zeros');
    assert.equal((await c.get('/usage?from=2024-01-01&to=2024-12-31')).status, 200, '366 days (a leap year) is the most');
    const cases: Array<[string, string]> = [
      ['from=2024-01-01&to=2025-01-01', 'DATE_RANGE_TOO_LONG'],
      ['from=2026-05-02&to=2026-05-01', 'INVALID_DATE_RANGE'],
      ['from=2026-02-30', 'VALIDATION_FAILED'],
      ['to=yesterday', 'VALIDATION_FAILED'],
      ['from=2026-1-1', 'VALIDATION_FAILED'],
      ['from=2026-01-01T00:00:00Z', 'VALIDATION_FAILED'],
      ['from=', 'VALIDATION_FAILED'],
    ];
    for (const [q, code] of cases) {
      const r = await c.get(`/usage?${q}`);
      assert.deepEqual([r.status, r.body.code], [400, code], q);
      assert.equal(r.body.error, 'Bad Request');
    }
    const bad = await client(`${srv.baseUrl}/api/mindsim`, a.apiKey).get('/usage?from=2026-05-02&to=2026-05-01');
    assert.deepEqual([bad.status, bad.body.code, bad.body.details], [400, 'INVALID_DATE_RANGE', { from: '2026-05-02', to: '2026-05-01' }]);
    const anon = await client(srv.api, '').get('/usage');
    assert.deepEqual([anon.status, anon.body.code], [401, 'AUTH_FAILED']);
  });

  it('the SDK reads it', async () => {
    const u = await srv.sdk(a.apiKey).usage.get({ from: today(), to: today() });
    assert.equal(u.from, today());
    assert.ok(u.successCount > 0 && u.numberOfSimulations === 3);
  });
});

const pick = (u: { from: string; to: string }) => ({ from: u.from, to: u.to });

describe('the dashboard usage page', () => {
  it("shows each key's outcomes and p50/p95/p99 for the chosen window, and says what is wrong with a bad one", async () => {
    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.signUp('usage-page@example.com', 'a long enough password 1')).status, 303);
    const made = await web.submit('/keys', { name: 'dash key' }, '/keys');
    const key = /value="(msk_[^"]+)"/.exec(made.text)?.[1] ?? '';
    assert.match(key, /^msk_/);
    const c = client(srv.api, key);
    await c.get('/models');
    await c.get('/models');
    await c.get(`/minds/${NIL}`);
    const page = await web.get(`/usage?from=${today()}&to=${today()}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`Outcomes and latency per key, ${today()} to ${today()}`));
    const row = (label: string) => new RegExp(`<tr><td>${label}[^<]*</td><td>2</td><td>1</td><td>[\\d.]+</td><td>[\\d.]+</td><td>[\\d.]+</td></tr>`);
    assert.match(page.text, row('dash key'));
    assert.match(page.text, row('All keys'));
    assert.equal((page.text.match(/<rect /g) ?? []).length, 1, 'one day, one bar');
    const bad = await web.get('/usage?from=2026-05-02&to=2026-05-01');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /role="alert">from must not be after to\. Showing the last 30 days instead\./);
    assert.equal((bad.text.match(/<rect /g) ?? []).length, 30);
  });
});

describe('mindsim usage', () => {
  const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'mindsim.js');
  const run = (args: string[], key: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const home = os.tmpdir();
      const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'mindsim-usage-none'), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: key };
      execFile(process.execPath, [BIN, ...args], { cwd: home, env }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });

  it("prints the key's usage, as text or as the API's JSON; a bad day is a usage error", async () => {
    const { apiKey } = await srv.admin.createAccount('usage-cli@example.com', 'standard');
    await client(srv.api, apiKey).get('/models');
    const text = await run(['usage'], apiKey); // first: the other calls count too
    const [json, bad, reversed] = await Promise.all([
      run(['usage', '--from', '2026-01-01', '--to', '2026-01-31', '--json'], apiKey),
      run(['usage', '--from', 'last-week'], apiKey),
      run(['usage', '--from', '2026-05-02', '--to', '2026-05-01'], apiKey),
    ]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(pick(JSON.parse(json.stdout)), { from: '2026-01-01', to: '2026-01-31' });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Usage of this API key, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\)\n\s+Requests\s+1 \(1 succeeded, 0 failed\)/);
    assert.match(text.stdout, /Percentiles\s+p50 [\d.]+ ms, p90/);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--from takes a UTC day as YYYY-MM-DD/);
    assert.equal(reversed.code, 1);
    assert.match(reversed.stderr, /from must not be after to\. \(INVALID_DATE_RANGE, HTTP 400/);
  });
});

describe('the usage meter', () => {
  const at = (isoTime: string): Runtime => ({ now: () => new Date(isoTime), newId: () => 'x', randomBytes: (n) => Buffer.alloc(n) });

  it('percentiles from histograms merged in any grouping stay within 2% of the exact ones', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const values = Array.from({ length: 20_000 }, () => 0.05 * Math.exp(random() * Math.log(400_000))); // 0.05 ms – 20 s
    const parts = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
    values.forEach((v, i) => addToHistogram(parts[i % 3] ?? new Map(), latencyBucket(v)));
    const merged = new Map<number, number>();
    for (const p of parts) for (const [b, n] of p) addToHistogram(merged, b, n);
    const sorted = [...values].sort((x, y) => x - y);
    const qs = [0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1];
    const got = quantiles(merged, qs, sorted[0] ?? 0, sorted[sorted.length - 1] ?? 0);
    qs.forEach((q, i) => {
      const truth = nearestRank(sorted, q);
      assert.ok(Math.abs((got[i] ?? 0) - truth) <= truth * LATENCY_ACCURACY * (1 + 1e-9), `q=${q}: ${got[i]} vs ${truth}`);
    });
    assert.ok(merged.size < 700, `bounded: ${merged.size} buckets`);
    assert.deepEqual(quantiles(new Map(), [0.5], 0, 0), [0]);
  });

  it('counts psychometrics routes (the path contains /psychometrics), per key, whatever the outcome', async () => {
    const db = await openSqlite(fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-usage-')));
    const usage = new UsageService(makeRepos(db).usage, at('2026-11-22T10:00:00Z'), 600_000);
    const app = Fastify();
    app.decorateRequest('auth', null);
    app.addHook('onRequest', (req, _reply, done) => {
      const key = String(req.headers['x-key'] ?? '');
      req.auth = key ? { accountId: 'acc', tier: 'standard', apiKeyId: key } : null;
      done();
    });
    meterUsage(app, usage);
    app.get('/minds/:mindId/snapshots/:snapshotId/psychometrics', async (req, reply) => (req.headers['x-fail'] ? reply.code(404).send({}) : {}));
    app.get('/minds/:mindId', async () => ({}));
    try {
      const hit = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });
      await hit('/minds/m/snapshots/s/psychometrics', { 'x-key': 'k1' });
      await hit('/minds/m/snapshots/s/psychometrics', { 'x-key': 'k1', 'x-fail': '1' });
      await hit('/minds/m', { 'x-key': 'k1' });
      await hit('/minds/psychometrics', { 'x-key': 'k1' }); // a mind id, not a psychometrics route
      await hit('/nope/psychometrics', { 'x-key': 'k1' }); // no route
      await hit('/minds/m/snapshots/s/psychometrics', { 'x-key': 'k2' });
      await hit('/minds/m/snapshots/s/psychometrics', {}); // no key: not metered
      const window = { from: '2026-11-22', to: '2026-11-22' };
      const k1 = await usage.report({ accountId: 'acc', apiKeyId: 'k1' }, window);
      assert.deepEqual([k1.numberOfPsychometricsRequests, k1.successCount, k1.errorCount], [2, 3, 2]);
      assert.equal((await usage.report({ accountId: 'acc', apiKeyId: 'k2' }, window)).numberOfPsychometricsRequests, 1);
      assert.equal((await usage.report({ accountId: 'acc' }, window)).numberOfPsychometricsRequests, 3, 'every key of the account');
      await usage.close();
      const stored = await usage.report({ accountId: 'acc', apiKeyId: 'k1' }, window);
      assert.deepEqual([stored.numberOfPsychometricsRequests, stored.successCount, stored.errorCount], [2, 3, 2], 'the same once flushed');
      assert.equal((await usage.report({ accountId: 'other', apiKeyId: 'k1' }, window)).totalCount, 0, "a key is read within its account only");
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('keeps the per-key counts of a failed flush for the next one', async () => {
    let fail = true;
    const written: unknown[] = [];
    const repo = {
      add: async () => undefined,
      addKeyDays: async (rows: unknown[]) => {
        if (fail) throw new Error('database away');
        written.push(...rows);
      },
    };
    const usage = new UsageService(repo as never, at('2026-11-22T10:00:00Z'), 600_000);
    const auth = { accountId: 'acc', tier: 'standard' as const, apiKeyId: 'k1' };
    usage.record('acc', { apiKeyId: 'k1', statusCode: 200, latencyMs: 3, psychometrics: false });
    usage.simulated(auth, 'twin-1');
    await assert.rejects(usage.flush(), /database away/);
    usage.record('acc', { apiKeyId: 'k1', statusCode: 500, latencyMs: 9, psychometrics: false });
    usage.simulated(auth, 'twin-1');
    usage.snapshotCreated(auth);
    usage.simulated({ ...auth, apiKeyId: null }, 'twin-2'); // a dashboard session: no key, not metered
    fail = false;
    await usage.close();
    assert.equal(written.length, 1);
    const row = written[0] as Record<string, unknown>;
    assert.deepEqual(
      [row.success_count, row.error_count, row.latency_sum_ms, row.latency_min_ms, row.latency_max_ms, row.simulations, row.snapshots_created, row.simulatedTwins],
      [1, 1, 12, 3, 9, 2, 1, ['twin-1']],
    );
  });
});

/** Two API processes on one database: each counts in memory, their flushes add up. */
async function severalProcesses(dbEnv: Record<string, string>) {
  const env = { ...dbEnv, USAGE_FLUSH_MS: '600000' }; // flushed by the test only
  const one = await startService(env);
  const two = await startService({ ...env, ...(dbEnv.DATABASE_URL ? {} : { DATA_DIR: one.dataDir }), RUN_WORKER: 'false' });
  try {
    const acct = await one.admin.createAccount('procs@example.com', 'standard');
    const c1 = client(one.api, acct.apiKey);
    const c2 = client(two.api, acct.apiKey);
    const { mind, digitalTwin } = (await c1.post('/minds', { name: 'Sam Okafor' })).body;
    const started = (await c1.post(`/minds/${mind.id}/snapshots`, fileForm(vtt, 'interview.vtt', 'text/vtt'))).body;
    assert.equal((await waitForSnapshot(c1, mind.id, started.mindAssessmentId)).status, 'completed');
    const ask = { mindId: mind.id, scenario: { message: 'How do you start your day?' } };
    assert.equal((await c1.post('/simulate', ask)).status, 200);
    assert.equal((await c2.post('/simulate', ask)).status, 200);
    for (let i = 0; i < 3; i++) await c2.get(`/minds/${NIL}`);
    await one.ctx.services.usage.flush();
    const before = (await c1.get('/usage')).body;
    assert.equal(before.numberOfSimulations, 1, "the other process's counts are not flushed yet");
    await two.ctx.services.usage.flush();
    await one.ctx.services.usage.flush();
    const u = (await c1.get('/usage')).body;
    assert.equal(u.numberOfSimulations, 2);
    assert.equal(u.numberOfSimulatedTwins, 1, `one twin (${digitalTwin.id}), simulated in both processes`);
    assert.equal(u.numberOfSnapshotsCreated, 1);
    assert.equal(u.errorCount, 3);
    assert.equal(u.successCount, before.successCount + 1 + 1, "the other process's simulation, and the /usage read before");
    assert.ok(u.minLatency > 0 && u.minLatency <= u.medianLatency && u.medianLatency <= u.maxLatency);
    assert.ok(u.maxLatency >= before.maxLatency && u.minLatency <= before.minLatency);
  } finally {
    await two.close();
    await one.close();
  }
}

describe('several API processes', () => {
  it('SQLite: counts from both processes merge in the shared file', () => severalProcesses({}));
  it('PostgreSQL: counts from both processes merge', { skip: PG_SKIP }, async () => {
    const db = await createDatabase();
    try {
      await severalProcesses({ DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });
});
