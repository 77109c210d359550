/**
 * `admin backup` under load and `admin restore` into a fresh folder: a service started on the
 * restored folder has every mind, snapshot and API key of the backup, answers the same scenarios
 * the same way, and completes the snapshots that were still pending (their files were kept).
 * The operator CLI runs as a process, as it does for an operator; the services run in this one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { longInterview, makeDocx, sampleInterview, teamsVtt, zoomVtt } from '../testkit/fixtures.ts';
import { ApiError, type Mind, type SnapshotDetails } from '@mindsim/sdk';
import { runAdmin } from '../testkit/process.ts';
import { blobOf, testSdk, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { waitUntil } from '../testkit/wait.ts';

const SCENARIO = { message: 'We are hiring a backend engineer who never went to college. Would you hire them?' };

let srv: Service;
let restored: Service | null = null;
let api: TestSdk;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-backup-'));
const archive = path.join(tmp, 'mindsim-backup.tar.gz');

before(async () => {
  srv = await startService();
  api = srv.sdk();
});
after(async () => {
  await Promise.all([restored?.close(), srv?.close()]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A mind with one direct and one signed-URL snapshot. */
async function mindWithSnapshots(c: TestSdk, name: string, words: number): Promise<{ mindId: string; snapshotIds: string[] }> {
  const mindId = (await c.minds.create(name)).mind.id;
  const direct = await c.snapshots.create(mindId, { file: blobOf(await makeDocx(sampleInterview())), fileName: 'i.docx' });
  const upload = await c.uploads.upload(mindId, blobOf(zoomVtt(longInterview(words))), { fileName: 't.vtt' });
  assert.equal(c.last?.status, 200);
  const viaUrl = await c.snapshots.create(mindId, { artifactId: upload.artifactId });
  return { mindId, snapshotIds: [direct.mindAssessmentId, viaUrl.mindAssessmentId] };
}

/** Simulations and uploads (signed URL and direct) on minds of their own, until stopped. */
function load(c: TestSdk) {
  let running = true;
  let requests = 0;
  const loop = async (i: number) => {
    const mindId = (await c.minds.create(`Load ${i}`)).mind.id;
    for (let n = 0; running; n++) {
      const upload = await c.uploads.upload(mindId, blobOf(teamsVtt(longInterview(80 + n))), { fileName: 'l.vtt' });
      await c.snapshots.create(mindId, { artifactId: upload.artifactId });
      await c.snapshots.create(mindId, { file: blobOf(zoomVtt(longInterview(60 + n))), fileName: 'd.vtt' });
      // The load only has to run: an early simulate answers 409 (no snapshot completed yet).
      await c.simulate({ mindId, scenario: SCENARIO }).catch((err: unknown) => {
        if (!(err instanceof ApiError)) throw err;
      });
      requests += 5;
      await new Promise((r) => setTimeout(r, 100)); // the load's pace, not a wait
    }
  };
  const loops = [0, 1].map(loop);
  return {
    /** Requests made so far. */
    requests: () => requests,
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
      srv.admin.createAccount('ana@example.com', 'standard'),
      mindWithSnapshots(api, 'Sam Okafor', 1500),
      mindWithSnapshots(api, 'Sam Again', 500),
    ]);
    keys.push(srv.apiKey, other.apiKey);
    stable.push(...owned, await mindWithSnapshots(srv.sdk(other.apiKey), 'Ana', 400));
    for (const m of stable) {
      const c = srv.sdk(m === stable[2] ? other.apiKey : srv.apiKey);
      for (const id of m.snapshotIds) assert.equal((await waitFor(c, m.mindId, id)).status, 'completed');
    }
    unusedUrl = (await api.uploads.signedUrl(stable[0]?.mindId ?? '')).signedUrl;

    const traffic = load(api);
    await waitUntil(() => traffic.requests() > 0, { what: 'the load under way' });
    const r = await runAdmin(srv.env, 'backup', '--out', archive);
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
    restored = await startService({ DATA_DIR: fresh });
    assert.equal(restored.apiKey, '', 'the accounts came back: no new owner');

    for (const [i, key] of keys.entries()) {
      const before = testSdk(srv.baseUrl, key);
      const after = testSdk(restored.baseUrl, key);
      const minds = await after.minds.list({ limit: 100 }).all();
      assert.equal(after.last?.status, 200, `key ${i} authenticates on the restored service`);
      const originals = new Map((await before.minds.list({ limit: 100 }).all()).map((m) => [m.id, m]));
      // The mind as it was; its snapshots and token count are those of the backup's moment (uploads went on after it).
      const withoutSnapshots = (m: Mind | undefined) => m && { ...m, tokenCount: null, digitalTwins: m.digitalTwins.map((t) => ({ ...t, mindAssessments: [] })) };
      for (const m of minds) {
        const original = originals.get(m.id);
        assert.deepEqual(withoutSnapshots(m), withoutSnapshots(original), 'every restored mind is as it was');
        const then = new Set(original?.digitalTwins.flatMap((t) => t.mindAssessments.map((a) => `${t.id}/${a.id}`)));
        for (const t of m.digitalTwins) for (const a of t.mindAssessments) assert.ok(then.has(`${t.id}/${a.id}`), `snapshot ${a.id} of its twin`);
      }
      for (const m of minds) {
        const snaps = await after.snapshots.list(m.id).all();
        // Snapshots pending at backup time run again on the restored service: their files were kept.
        for (const s of snaps) assert.equal((await waitFor(after, m.id, s.id, 60_000)).status, 'completed', s.id);
        const now = await after.snapshots.list(m.id).all();
        const then = await before.snapshots.list(m.id, { limit: 100 }).all();
        const ids = new Set(now.map((s) => s.id));
        for (const s of now) assert.ok(then.some((t) => t.id === s.id && t.createdAt === s.createdAt && t.status === s.status));
        for (const s of now.filter((x) => x.status === 'completed')) {
          const kept = ({ transcripts, psychometrics, keyTopicCount }: SnapshotDetails) => ({ transcripts, psychometrics, keyTopicCount });
          assert.deepEqual(kept(await after.snapshots.get(m.id, s.id)), kept(await before.snapshots.get(m.id, s.id)), 'turns and psychometrics are restored');
        }
        if (then.every((t) => ids.has(t.id))) {
          const a = await before.simulate({ mindId: m.id, scenario: SCENARIO });
          const b = await after.simulate({ mindId: m.id, scenario: SCENARIO });
          // Each answer is a new conversation of its service: the same answer, in conversations of their own.
          const answer = ({ simulationId: _s, conversationId: _c, ...rest }: typeof a) => rest;
          assert.deepEqual(answer(b), answer(a), `same answer for ${m.id}`);
        }
      }
    }
    for (const m of stable) {
      const c = restored.sdk(m === stable[2] ? (keys[1] ?? '') : srv.apiKey);
      await c.minds.get(m.mindId);
      assert.equal(c.last?.status, 200);
      assert.deepEqual(
        (await c.snapshots.list(m.mindId).all()).map((s) => s.id).sort(),
        [...m.snapshotIds].sort(),
      );
    }
    // The URL-signing secret came back too: a URL handed out before the backup works on the restored service.
    const moved = unusedUrl.replace(srv.baseUrl, restored.baseUrl);
    assert.equal((await fetch(moved, { method: 'PUT', body: teamsVtt(sampleInterview()) })).status, 200);
  });

  it('stops with an error, not a backup that hides it, when a file of an existing mind is missing', async () => {
    const dir = restored?.dataDir ?? '';
    const folder = path.join(dir, 'blobs', 'artifacts', stable[1]?.mindId ?? '');
    fs.rmSync(path.join(folder, fs.readdirSync(folder)[0] ?? ''));
    const r = await runAdmin(restored?.env ?? {}, 'backup', '--out', path.join(tmp, 'damaged.tar.gz'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is missing, yet its mind .* exists/);
    assert.ok(!fs.existsSync(path.join(tmp, 'damaged.tar.gz')));
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.startsWith('.backup-')), [], 'no staging folder is left');
  });
});
