/**
 * Erasure: deleting a mind (the DELETE route, or `admin erase-mind` while the service runs) leaves
 * no row that names it or its twins, snapshots and artifacts in any table, no blob, and no entry
 * in the process's memory cache; after `erase-mind` its words are in neither the database file nor
 * its WAL. The service runs in this process (real HTTP) so its cache can be looked at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sampleInterview, teamsVtt, zoomVtt, type Turn } from '../testkit/fixtures.ts';
import { sqliteRowsNaming } from '../testkit/erasure.ts';
import { runAdmin } from '../testkit/process.ts';
import { blobOf, statusOf, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';

let srv: Service;
let sdk: TestSdk;
let dataDir: string;

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', WORKER_POLL_MS: '20', USAGE_FLUSH_MS: '600000' }); // usage flushed by the tests only
  sdk = srv.sdk();
  dataDir = srv.dataDir;
});

after(() => srv?.close());

interface Populated {
  mindId: string;
  ids: string[];
}

/** A mind with a direct-file snapshot and a signed-URL snapshot, simulated and profiled (the caches filled). */
async function populate(name: string, marker: string): Promise<Populated> {
  const created = await sdk.minds.create(name);
  const mindId = created.mind.id;
  const turns: Turn[] = [...sampleInterview(), { speaker: 'Dana Reyes', text: 'One last thing?' }, { speaker: 'Sam Okafor', text: `My secret word is ${marker}, and I say ${marker} often.` }];
  const direct = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(turns)), fileName: 'a.vtt' });
  const upload = await sdk.uploads.upload(mindId, blobOf(zoomVtt(turns)), { fileName: 'b.vtt' });
  assert.equal(sdk.last?.status, 200);
  const viaUrl = await sdk.snapshots.create(mindId, { artifactId: upload.artifactId });
  const snaps = [direct, viaUrl];
  for (const s of snaps) assert.equal((await waitFor(sdk, mindId, s.mindAssessmentId)).status, 'completed');
  await sdk.simulate({ mindId, scenario: { message: `What is ${marker}?` } });
  assert.equal(sdk.last?.status, 200);
  await sdk.minds.profile(mindId);
  assert.equal(sdk.last?.status, 200);
  const ids = [mindId, created.digitalTwin.id, ...snaps.flatMap((s) => [s.mindAssessmentId, s.artifactId])];
  return { mindId, ids };
}

/**
 * What an erasure keeps on purpose (issue 25): the access log (who read, changed or deleted the mind,
 * and when: ids, actions and times, never the person's words; append-only, kept AUDIT_RETENTION_DAYS)
 * and the content-free record that consent was withdrawn and when. They name the mind by its id.
 */
const KEPT_BY_ERASURE = new Set(['access_log', 'consent_withdrawals']);

/** `table.column` of every value in the database that contains one of these strings (the tables an erasure keeps aside). */
const rowsNaming = (needles: string[]) => sqliteRowsNaming(dataDir, needles, KEPT_BY_ERASURE);

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
    assert.ok(goneSnapshots.every((id) => srv.ctx.memories.heldSnapshotIds().includes(id)), 'the cache holds its memory before');

    await sdk.minds.delete(gone.mindId);
    assert.equal(sdk.last?.status, 204);

    assert.deepEqual(rowsNaming(gone.ids), [], 'no table names the mind, its twin, snapshots or artifacts');
    const audit = await sdk.audit.list({ mindId: gone.mindId }).all();
    assert.equal(audit[0]?.action, 'mind.delete', 'the access log keeps the deletion, newest');
    assert.ok(['snapshot.create', 'simulate', 'profile.read'].every((a) => audit.some((r) => r.action === a)), 'and the accesses before it');
    assert.ok(!JSON.stringify(audit).includes('Quixotrelline'), 'ids, never words');
    assert.deepEqual(blobPaths().filter((p) => p.includes(gone.mindId)), []);
    assert.deepEqual(srv.ctx.memories.heldSnapshotIds().filter((id) => goneSnapshots.includes(id)), []);
    assert.equal(await statusOf(sdk.simulate({ mindId: gone.mindId, scenario: { message: 'Hello?' } })), 404);
    assert.equal(await statusOf(sdk.snapshots.status(gone.mindId, goneSnapshots[0] ?? '')), 404);

    assert.ok(rowsNaming(kept.ids).includes('memories.snapshot_id'), 'the other mind keeps its rows');
    assert.ok(blobPaths().some((p) => p.includes(kept.mindId)));
    assert.equal(await statusOf(sdk.simulate({ mindId: kept.mindId, scenario: { message: 'How do you like your coffee?' } })), 200);
  });

  it('admin erase-mind (another process, the service running) leaves no row, blob, nor its words in the database files', async () => {
    const marker = 'Zyzzogravelin';
    const gone = await populate('Erased Person', marker);
    assert.notDeepEqual(fileHolds(marker), [], 'its words are in the database files before');

    const r = await runAdmin(srv.env, 'erase-mind', '--mind', gone.mindId);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { erased: boolean; mindId: string; snapshots: number };
    assert.deepEqual([out.erased, out.mindId, out.snapshots], [true, gone.mindId, 2]);
    // The service still holds the simulation's usage in memory (it flushes on a timer): a flush
    // after the erase must not write a row naming the erased twin.
    await srv.ctx.services.usage.flush();

    assert.deepEqual(rowsNaming(gone.ids), []);
    assert.deepEqual(blobPaths().filter((p) => p.includes(gone.mindId)), []);
    assert.deepEqual(fileHolds(marker), [], 'secure_delete zeroed the rows and the checkpoint emptied the WAL');
    const audit = await sdk.audit.list({ mindId: gone.mindId }).all();
    assert.deepEqual([audit[0]?.action, audit[0]?.actor], ['mind.delete', 'operator'], 'the access log keeps that the operator erased it');
    assert.equal(await statusOf(sdk.minds.get(gone.mindId)), 404);
    assert.ok(fileHolds('Marmalade').length > 0, "the other mind's words are still there");

    const unknown = await runAdmin(srv.env, 'erase-mind', '--mind', gone.mindId);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /mind/i);
  });
});
