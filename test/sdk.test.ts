import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ApiError, MindsimClient, WaitTimeoutError, retryAfterMs } from '@mindsim/sdk';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startService, type Service } from '../testkit/service.ts';

let srv: Service;
let sdk: MindsimClient;
const ROOT = path.resolve(import.meta.dirname, '..');

before(async () => {
  srv = await startService();
  // The SDK as a user makes it: the defaults, retries included.
  sdk = new MindsimClient({ baseUrl: srv.baseUrl, apiKey: srv.apiKey });
});
after(() => srv?.close());

describe('SDK against the service', () => {
  it('minds: create, list across pages (Link rel=next), get, update, delete', async () => {
    const created = [];
    for (const name of ['Ana', 'Ben', 'Cy']) created.push(await sdk.minds.create(name));
    assert.equal(created[0]?.digitalTwin.name, 'Default');
    const pages: string[][] = [];
    for await (const page of sdk.minds.list({ limit: 2 }).pages()) pages.push(page.map((m) => m.name));
    assert.ok(pages.length >= 2, `several pages: ${JSON.stringify(pages)}`);
    const all = await sdk.minds.list({ limit: 2 }).all();
    assert.deepEqual(all.slice(0, 3).map((m) => m.name), ['Cy', 'Ben', 'Ana']);
    const id = created[0]!.mind.id;
    assert.equal((await sdk.minds.get(id)).digitalTwins.length, 1);
    assert.equal((await sdk.minds.update(id, { name: 'Ana B' })).name, 'Ana B');
    await sdk.minds.delete(id);
    const err = await sdk.minds.get(id).catch((e: unknown) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'MIND_NOT_FOUND');
    assert.match(err.requestId ?? '', /.+/);
  });

  it('signed-URL upload of a Node stream with byte progress, snapshot from the artifact, wait, simulate', async () => {
    const { mind, digitalTwin } = await sdk.minds.create('Sam Okafor');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-')), 'interview.vtt');
    fs.writeFileSync(file, teamsVtt(sampleInterview()).repeat(1));
    const size = fs.statSync(file).size;
    const seen: number[] = [];
    const up = await sdk.uploads.upload(mind.id, fs.createReadStream(file, { highWaterMark: 512 }), {
      fileName: 'interview.vtt',
      size,
      onProgress: (sent, total) => {
        assert.equal(total, size);
        seen.push(sent);
      },
    });
    assert.equal(up.size, size);
    assert.equal(seen.at(-1), size);
    assert.ok(seen.length > 2 && seen.every((n, i) => i === 0 || n > seen[i - 1]!), 'progress grows chunk by chunk');
    const started = await sdk.snapshots.create(mind.id, { artifactId: up.artifactId, digitalTwinId: digitalTwin.id });
    assert.equal(started.artifactId, up.artifactId);
    const statuses: string[] = [];
    const done = await sdk.snapshots.wait(mind.id, started.mindAssessmentId, { timeoutMs: 30_000, onStatus: (s) => statuses.push(s.status) });
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(statuses.at(-1), 'completed');
    const sim = await sdk.simulate({ mindId: mind.id, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: 'Do you like working remotely?' } });
    assert.ok(sim.evidence.length > 0);
    assert.deepEqual(sim.snapshotIds, [started.mindAssessmentId]);
    const profile = await sdk.minds.profile(mind.id);
    assert.deepEqual(profile.snapshotIds, [started.mindAssessmentId]);
  });

  it('a Blob through the signed URL and a direct multipart file both make snapshots', async () => {
    const { mind } = await sdk.minds.create('Sam Okafor');
    const blob = new Blob([teamsVtt(sampleInterview())], { type: 'text/vtt' });
    const up = await sdk.uploads.upload(mind.id, blob, { fileName: 'a.vtt' });
    const fromArtifact = await sdk.snapshots.create(mind.id, { artifactId: up.artifactId });
    const direct = await sdk.snapshots.create(mind.id, { file: blob, fileName: 'b.vtt' });
    for (const s of [fromArtifact, direct]) assert.equal((await sdk.snapshots.wait(mind.id, s.mindAssessmentId, { timeoutMs: 30_000 })).status, 'completed');
    assert.equal((await sdk.snapshots.list(mind.id).all()).length, 2);
  });

  it('typed errors: 409 before a snapshot completes, 401 with a wrong key; wait honours its timeout and signal', async () => {
    const { mind } = await sdk.minds.create('Nobody');
    const e409 = await sdk.simulate({ mindId: mind.id, scenario: { message: 'Hi' } }).catch((e: unknown) => e);
    assert.ok(e409 instanceof ApiError && e409.status === 409 && e409.code === 'SNAPSHOT_NOT_READY');
    const bad = new MindsimClient({ baseUrl: `${srv.baseUrl}/api/public/v1/`, apiKey: 'msk_nope' });
    const e401 = await bad.models.list().catch((e: unknown) => e);
    assert.ok(e401 instanceof ApiError && e401.status === 401 && e401.code === 'AUTH_FAILED' && e401.details?.reason === 'invalid_api_key');
    const snap = await sdk.snapshots.create(mind.id, { file: new Blob(['WEBVTT\n\n00:00.000 --> 00:01.000\nHello there.\n']) });
    const ctl = new AbortController();
    ctl.abort(new Error('stop'));
    await assert.rejects(sdk.snapshots.wait(mind.id, snap.mindAssessmentId, { signal: ctl.signal }), /stop/);
    assert.equal((await sdk.models.list()).length, 2);
    assert.deepEqual(await sdk.webhookEvents.list().all(), []);
  });
});

describe('SDK retries', () => {
  it('retries GET after 429 honouring Retry-After and after 503; never retries POST', async (t) => {
    const hits: Array<{ method: string }> = [];
    const fake = http.createServer((req, res) => {
      hits.push({ method: req.method ?? '' });
      const n = hits.length;
      if (req.method === 'POST') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"busy","message":"Busy."}}');
      if (n === 1) return void res.writeHead(429, { 'retry-after': '1.5', 'x-request-id': 'r1' }).end();
      if (n === 2) return void res.writeHead(503).end('down');
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
    try {
      const c = new MindsimClient({ baseUrl: base, apiKey: 'k', retryBaseMs: 20 });
      // The delays the client schedules, not the time that passes: each timer set, with how many requests the server had then.
      const scheduled: Array<{ ms: number; afterHits: number }> = [];
      const realSetTimeout = globalThis.setTimeout;
      const timers = t.mock.method(globalThis, 'setTimeout', ((fn: () => void, ms?: number) => {
        scheduled.push({ ms: ms ?? 0, afterHits: hits.length });
        return realSetTimeout(fn, ms);
      }) as typeof setTimeout);
      assert.deepEqual(await c.models.list(), []);
      timers.mock.restore();
      assert.equal(hits.length, 3);
      assert.ok(scheduled.some((x) => x.afterHits === 1 && x.ms === 1500), `slept Retry-After (1.5 s) after the 429: ${JSON.stringify(scheduled)}`);
      // After the 503 (no Retry-After) the backoff: retryBaseMs doubled for the second retry, 20 to 40 ms with its jitter.
      assert.ok(scheduled.some((x) => x.afterHits === 2 && x.ms >= 20 && x.ms <= 40), `backed off after the 503: ${JSON.stringify(scheduled)}`);
      hits.length = 0;
      const err = await c.minds.create('x').catch((e: unknown) => e);
      assert.ok(err instanceof ApiError && err.status === 503 && err.code === 'busy');
      assert.equal(hits.length, 1);
      const noRetry = new MindsimClient({ baseUrl: base, apiKey: 'k', maxRetries: 0 });
      hits.length = 0;
      assert.equal(((await noRetry.models.list().catch((e: unknown) => e)) as ApiError).status, 429);
    } finally {
      fake.close();
    }
    assert.equal(retryAfterMs('2'), 2000);
    assert.ok((retryAfterMs(new Date(Date.now() + 3000).toUTCString()) ?? 0) > 1000);
  });
});

describe('SDK upload retries', () => {
  it('a Blob upload is sent again after a 503 on the PUT, its progress counting from 0; a stream is not', async () => {
    let puts = 0;
    const received: number[] = [];
    const fake = http.createServer((req, res) => {
      const port = (fake.address() as { port: number }).port;
      if (req.method === 'GET') {
        const body = { signedUrl: `http://127.0.0.1:${port}/put`, fileName: 'a.vtt', artifactId: 'a', expiresAt: '' };
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
      let n = 0;
      req.on('data', (d: Buffer) => (n += d.length));
      req.on('end', () => {
        received.push(n);
        if (++puts === 1) return void res.writeHead(503).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ artifactId: 'a', size: n }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const c = new MindsimClient({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}`, apiKey: 'k', retryBaseMs: 10 });
      const progress: number[] = [];
      const up = await c.uploads.upload('m', new Blob([new Uint8Array(200_000)]), { onProgress: (sent) => progress.push(sent) });
      assert.equal(up.size, 200_000);
      assert.deepEqual(received, [200_000, 200_000]);
      assert.equal(progress.filter((p) => p === 200_000).length, 2, 'progress ran twice, each time to the full size');
      puts = 0;
      const err = await c.uploads.upload('m', Readable.from([Buffer.alloc(10)]), { size: 10 }).catch((e: unknown) => e);
      assert.ok(err instanceof ApiError && err.status === 503);
      assert.equal(puts, 1);
    } finally {
      fake.close();
    }
  });
});

describe('SDK wait', () => {
  // The test's own timeout is the deadline for a wait that never ends (25 times its 0.4 s); the reads are counted, not timed.
  it('gives up with WaitTimeoutError when the snapshot does not end in time', { timeout: 10_000 }, async () => {
    let reads = 0;
    const fake = http.createServer((_req, res) => {
      reads++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"processing"}');
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const c = new MindsimClient({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}`, apiKey: 'k' });
      const err = await c.snapshots.wait('m', 's', { timeoutMs: 400, intervalMs: 50 }).catch((e: unknown) => e);
      assert.ok(err instanceof WaitTimeoutError && err.lastStatus === 'processing');
      // It polled (a second read needs only the first to take under 0.4 s) at its intervals, 50 ms growing by half:
      // five reads fit in 0.4 s; a loop that ignored its intervals would read hundreds of times.
      assert.ok(reads >= 2 && reads <= 8, `${reads} reads`);
    } finally {
      fake.close();
    }
  });
});

describe('SDK types', () => {
  it('the committed openapi.ts is what openapi-typescript generates from the served document', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-types-')), 'openapi.ts');
    const bin = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    await promisify(execFile)(process.execPath, [bin, `${srv.api}/openapi.json`, '-o', out], { cwd: ROOT });
    const committed = fs.readFileSync(path.join(ROOT, 'packages', 'sdk', 'src', 'openapi.ts'), 'utf8');
    assert.ok(
      fs.readFileSync(out, 'utf8') === committed,
      'packages/sdk/src/openapi.ts is stale: start the service and run `npm run generate -w @mindsim/sdk`',
    );
  });
});
