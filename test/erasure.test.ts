/**
 * Erasure: deleting a mind (the DELETE route, or `admin erase-mind` while the service runs) leaves
 * no row that names it or its twins, snapshots and artifacts in any table, no blob, and no entry
 * in the process's memory cache; after `erase-mind` its words are in neither the database file nor
 * its WAL. The service runs in this process (real HTTP) so its cache can be looked at.
 */
import SqliteDatabase from 'better-sqlite3';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { compose, type Context } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import type { Worker } from '../src/jobs/worker.ts';
import { sampleInterview, teamsVtt, zoomVtt, type Turn } from './support/fixtures.ts';
import { client, fileForm, freePort, runAdmin, waitForSnapshot, type Client } from './support/server.ts';

let ctx: Context;
let app: FastifyInstance;
let worker: Worker;
let api: Client;
let env: NodeJS.ProcessEnv;
let dataDir: string;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-erasure-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: baseUrl, LOG_LEVEL: 'silent', WORKER_POLL_MS: '20' };
  for (const k of ['DATABASE_URL', 'BLOB_STORE', 'REDIS_URL', 'RATE_LIMIT_STORE']) delete env[k];
  const config = loadConfig(env);
  ctx = await compose(config, undefined, pino({ level: 'silent' }));
  worker = ctx.createWorker();
  app = await buildApp(ctx.services, {
    publicUrl: config.publicUrl,
    maxDirectFileBytes: config.maxDirectFileBytes,
    maxUploadBytes: config.maxUploadBytes,
    maxWebhookBytes: config.maxWebhookBytes,
    logLevel: config.logLevel,
    web: ctx.web,
  });
  const owner = await ctx.services.accounts.ensureOwner();
  await app.listen({ port, host: '127.0.0.1' });
  worker.start();
  api = client(`${baseUrl}/api/public/v1`, owner?.apiKey ?? '');
});

after(async () => {
  await app?.close();
  await worker?.stop(1000);
  await ctx?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Populated {
  mindId: string;
  ids: string[];
}

/** A mind with a direct-file snapshot and a signed-URL snapshot, simulated and profiled (the caches filled). */
async function populate(name: string, marker: string): Promise<Populated> {
  const created = (await api.post('/minds', { name })).body;
  const mindId = created.mind.id as string;
  const turns: Turn[] = [...sampleInterview(), { speaker: 'Dana Reyes', text: 'One last thing?' }, { speaker: 'Sam Okafor', text: `My secret word is ${marker}, and I say ${marker} often.` }];
  const direct = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(turns), 'a.vtt'));
  const signed = (await api.get(`/minds/${mindId}/signed-url?fileName=b.vtt`)).body;
  assert.equal((await fetch(signed.signedUrl, { method: 'PUT', body: zoomVtt(turns) })).status, 200);
  const form = new FormData();
  form.append('artifactId', signed.artifactId);
  const viaUrl = await api.post(`/minds/${mindId}/snapshots`, form);
  const snaps = [direct.body, viaUrl.body] as Array<{ mindAssessmentId: string; artifactId: string }>;
  for (const s of snaps) assert.equal((await waitForSnapshot(api, mindId, s.mindAssessmentId)).status, 'completed');
  assert.equal((await api.post('/simulate', { mindId, scenario: { message: `What is ${marker}?` } })).status, 200);
  assert.equal((await api.get(`/minds/${mindId}/profile`)).status, 200);
  const ids = [mindId, created.digitalTwin.id as string, ...snaps.flatMap((s) => [s.mindAssessmentId, s.artifactId])];
  return { mindId, ids };
}

/** `table.column` of every value in the database that contains one of these strings. */
function rowsNaming(needles: string[]): string[] {
  const db = new SqliteDatabase(path.join(dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    const tables = db.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[];
    const found = new Set<string>();
    for (const t of tables) {
      for (const row of db.prepare(`select * from "${t}"`).all() as Array<Record<string, unknown>>) {
        for (const [col, v] of Object.entries(row)) {
          if (typeof v === 'string' && needles.some((n) => v.includes(n))) found.add(`${t}.${col}`);
        }
      }
    }
    return [...found].sort();
  } finally {
    db.close();
  }
}

const blobPaths = () =>
  fs
    .readdirSync(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
    .map((e) => path.join(path.relative(dataDir, e.parentPath), e.name));

const fileHolds = (marker: string) =>
  ['mindsim.sqlite', 'mindsim.sqlite-wal'].filter((f) => {
    const p = path.join(dataDir, f);
    return fs.existsSync(p) && fs.readFileSync(p).includes(Buffer.from(marker));
  });

describe('erasure', { concurrency: false }, () => {
  let kept: Populated;
  before(async () => {
    kept = await populate('Kept Person', 'Marmalade');
  });

  it('DELETE leaves no row, blob or cache entry of the mind, and leaves the other mind whole', async () => {
    const gone = await populate('Gone Person', 'Quixotrelline');
    const goneSnapshots = gone.ids.slice(2).filter((_, i) => i % 2 === 0);
    assert.ok(rowsNaming(gone.ids).includes('memories.snapshot_id'), 'the scan sees the rows before');
    assert.ok(blobPaths().some((p) => p.includes(gone.mindId)));
    assert.ok(goneSnapshots.every((id) => ctx.memories.heldSnapshotIds().includes(id)), 'the cache holds its memory before');

    assert.equal((await api.del(`/minds/${gone.mindId}`)).status, 204);

    assert.deepEqual(rowsNaming(gone.ids), [], 'no table names the mind, its twin, snapshots or artifacts');
    assert.deepEqual(blobPaths().filter((p) => p.includes(gone.mindId)), []);
    assert.deepEqual(ctx.memories.heldSnapshotIds().filter((id) => goneSnapshots.includes(id)), []);
    assert.equal((await api.post('/simulate', { mindId: gone.mindId, scenario: { message: 'Hello?' } })).status, 404);
    assert.equal((await api.get(`/minds/${gone.mindId}/snapshots/${goneSnapshots[0]}/status`)).status, 404);

    assert.ok(rowsNaming(kept.ids).includes('memories.snapshot_id'), 'the other mind keeps its rows');
    assert.ok(blobPaths().some((p) => p.includes(kept.mindId)));
    assert.equal((await api.post('/simulate', { mindId: kept.mindId, scenario: { message: 'How do you like your coffee?' } })).status, 200);
  });

  it('admin erase-mind (another process, the service running) leaves no row, blob, nor its words in the database files', async () => {
    const marker = 'Zyzzogravelin';
    const gone = await populate('Erased Person', marker);
    assert.notDeepEqual(fileHolds(marker), [], 'its words are in the database files before');

    const r = await runAdmin(env, 'erase-mind', '--mind', gone.mindId);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { erased: boolean; mindId: string; snapshots: number };
    assert.deepEqual([out.erased, out.mindId, out.snapshots], [true, gone.mindId, 2]);

    assert.deepEqual(rowsNaming(gone.ids), []);
    assert.deepEqual(blobPaths().filter((p) => p.includes(gone.mindId)), []);
    assert.deepEqual(fileHolds(marker), [], 'secure_delete zeroed the rows and the checkpoint emptied the WAL');
    assert.equal((await api.get(`/minds/${gone.mindId}`)).status, 404);
    assert.ok(fileHolds('Marmalade').length > 0, "the other mind's words are still there");

    const unknown = await runAdmin(env, 'erase-mind', '--mind', gone.mindId);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /mind/i);
  });
});
