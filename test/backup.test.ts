/**
 * `admin backup` under load and `admin restore` into a fresh folder: a service started on the
 * restored folder has every mind, snapshot and API key of the backup, answers the same scenarios
 * the same way, and completes the snapshots that were still pending (their files were kept).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { longInterview, makeDocx, sampleInterview, teamsVtt, zoomVtt } from './support/fixtures.ts';
import { client, fileForm, runAdmin, startServer, waitForSnapshot, type Client, type TestServer } from './support/server.ts';

const SCENARIO = { message: 'We are hiring a backend engineer who never went to college. Would you hire them?' };

let srv: TestServer;
let restored: TestServer | null = null;
let api: Client;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-backup-'));
const archive = path.join(tmp, 'mindsim-backup.tar.gz');

before(async () => {
  srv = await startServer();
  api = client(srv.api, srv.apiKey);
});
after(async () => {
  await Promise.all([restored?.stop(), srv?.stop()]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

/** A mind with one direct and one signed-URL snapshot. */
async function mindWithSnapshots(c: Client, name: string, words: number): Promise<{ mindId: string; snapshotIds: string[] }> {
  const mindId = (await c.post('/minds', { name })).body.mind.id as string;
  const direct = await c.post(`/minds/${mindId}/snapshots`, fileForm(await makeDocx(sampleInterview()), 'i.docx'));
  const signed = (await c.get(`/minds/${mindId}/signed-url?fileName=t.vtt`)).body;
  assert.equal((await fetch(signed.signedUrl, { method: 'PUT', body: zoomVtt(longInterview(words)) })).status, 200);
  const viaUrl = await c.post(`/minds/${mindId}/snapshots`, form({ artifactId: signed.artifactId }));
  return { mindId, snapshotIds: [direct.body.mindAssessmentId, viaUrl.body.mindAssessmentId] };
}

/** Simulations and uploads (signed URL and direct) on minds of their own, until stopped. */
function load(c: Client) {
  let running = true;
  let requests = 0;
  const loop = async (i: number) => {
    const mindId = (await c.post('/minds', { name: `Load ${i}` })).body.mind.id as string;
    for (let n = 0; running; n++) {
      const signed = (await c.get(`/minds/${mindId}/signed-url?fileName=l.vtt`)).body;
      await fetch(signed.signedUrl, { method: 'PUT', body: teamsVtt(longInterview(80 + n)) });
      await c.post(`/minds/${mindId}/snapshots`, form({ artifactId: signed.artifactId }));
      await c.post(`/minds/${mindId}/snapshots`, fileForm(zoomVtt(longInterview(60 + n)), 'd.vtt'));
      await c.post('/simulate', { mindId, scenario: SCENARIO });
      requests += 5;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const loops = [0, 1].map(loop);
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return requests;
    },
  };
}

describe('backup and restore', { concurrency: false }, () => {
  const stable: Array<{ mindId: string; snapshotIds: string[] }> = [];
  const keys: string[] = [];
  let unusedUrl: string;
  let manifest: { minds: number; snapshots: number; blobs: number };

  it('backs up while simulations and uploads run', async () => {
    const [other, ...owned] = await Promise.all([
      srv.admin('create-account', '--email', 'ana@example.com', '--tier', 'standard'),
      mindWithSnapshots(api, 'Sam Okafor', 1500),
      mindWithSnapshots(api, 'Sam Again', 500),
    ]);
    keys.push(srv.apiKey, (JSON.parse(other?.stdout ?? '{}') as { apiKey: string }).apiKey);
    stable.push(...owned, await mindWithSnapshots(client(srv.api, keys[1] ?? ''), 'Ana', 400));
    for (const m of stable) {
      const c = client(srv.api, m === stable[2] ? (keys[1] ?? '') : srv.apiKey);
      for (const id of m.snapshotIds) assert.equal((await waitForSnapshot(c, m.mindId, id)).status, 'completed');
    }
    unusedUrl = (await api.get(`/minds/${stable[0]?.mindId}/signed-url`)).body.signedUrl;

    const traffic = load(api);
    await new Promise((r) => setTimeout(r, 300));
    const r = await srv.admin('backup', '--out', archive);
    const requests = await traffic.stop();
    assert.equal(r.code, 0, r.stderr);
    manifest = JSON.parse(r.stdout);
    assert.ok(requests > 0, 'the load ran during the backup');
    assert.ok(manifest.minds >= 3 && manifest.snapshots >= 6 && manifest.blobs >= 6, r.stdout);
    assert.ok(fs.statSync(archive).size > 0);
  });

  it('restores into a fresh folder (never a used one): same minds, snapshots, keys and answers', async () => {
    const fresh = path.join(tmp, 'restored');
    const [refused, r] = await Promise.all([
      runAdmin(srv.env, 'restore', '--from', archive),
      runAdmin({ ...srv.env, DATA_DIR: fresh }, 'restore', '--from', archive),
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not empty/);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { minds: number }).minds, manifest.minds);
    restored = await startServer({ DATA_DIR: fresh });
    assert.doesNotMatch(restored.output(), /Created the owner account/, 'the accounts came back: no new owner');

    for (const [i, key] of keys.entries()) {
      const before = client(srv.api, key);
      const after = client(restored.api, key);
      const minds = (await after.get('/minds?limit=100')).body as Array<{ id: string }>;
      assert.ok(Array.isArray(minds), `key ${i} authenticates on the restored service`);
      const originals = new Map(((await before.get('/minds?limit=100')).body as Array<{ id: string }>).map((m) => [m.id, m]));
      for (const m of minds) assert.deepEqual(m, originals.get(m.id), 'every restored mind is as it was');
      for (const m of minds) {
        const snaps = (await after.get(`/minds/${m.id}/snapshots`)).body as Array<{ id: string }>;
        // Snapshots pending at backup time run again on the restored service: their files were kept.
        for (const s of snaps) assert.equal((await waitForSnapshot(after, m.id, s.id, 60_000)).status, 'completed', s.id);
        const now = (await after.get(`/minds/${m.id}/snapshots`)).body as Array<{ id: string; status: string; createdAt: string }>;
        const then = (await before.get(`/minds/${m.id}/snapshots?limit=100`)).body as Array<{ id: string; status: string; createdAt: string }>;
        const ids = new Set(now.map((s) => s.id));
        for (const s of now) assert.ok(then.some((t) => t.id === s.id && t.createdAt === s.createdAt && t.status === s.status));
        if (then.every((t) => ids.has(t.id))) {
          const a = await before.post('/simulate', { mindId: m.id, scenario: SCENARIO });
          const b = await after.post('/simulate', { mindId: m.id, scenario: SCENARIO });
          assert.deepEqual(b.body, a.body, `same answer for ${m.id}`);
        }
      }
    }
    for (const m of stable) {
      const c = client(restored.api, m === stable[2] ? (keys[1] ?? '') : srv.apiKey);
      assert.equal((await c.get(`/minds/${m.mindId}`)).status, 200);
      assert.deepEqual(
        ((await c.get(`/minds/${m.mindId}/snapshots`)).body as Array<{ id: string }>).map((s) => s.id).sort(),
        [...m.snapshotIds].sort(),
      );
    }
    // The URL-signing secret came back too: a URL handed out before the backup works on the restored service.
    const moved = unusedUrl.replace(srv.baseUrl, restored.baseUrl);
    assert.equal((await fetch(moved, { method: 'PUT', body: teamsVtt(sampleInterview()) })).status, 200);
  });

  it('stops with an error, not a backup that hides it, when a file of an existing mind is missing', async () => {
    const dir = restored?.env.DATA_DIR ?? '';
    const folder = path.join(dir, 'blobs', 'artifacts', stable[1]?.mindId ?? '');
    fs.rmSync(path.join(folder, fs.readdirSync(folder)[0] ?? ''));
    const r = await runAdmin(restored?.env ?? {}, 'backup', '--out', path.join(tmp, 'damaged.tar.gz'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is missing, yet its mind .* exists/);
    assert.ok(!fs.existsSync(path.join(tmp, 'damaged.tar.gz')));
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('.backup-')), [], 'no staging folder is left');
  });
});
