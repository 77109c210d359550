/**
 * Snapshot management in the store: migration 007 on data written before it (SQLite and, with
 * TEST_DATABASE_URL, PostgreSQL), and the snapshot-management routes over PostgreSQL.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from '../../src/store/db/kysely.ts';
import pg from 'pg';
import { migrationProvider } from '../../src/store/db/migrations/index.ts';
import { blobOf, failure, waitFor } from '../../testkit/sdk.ts';
import { startService } from '../../testkit/service.ts';
import { createDatabase, PG_SKIP, type TestDatabase } from '../../testkit/scale.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

const T0 = '2024-03-01T10:00:00.000Z';
const T1 = '2024-03-01T10:05:00.000Z';
const dropped: TestDatabase[] = [];
after(async () => {
  for (const d of dropped) await d.drop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function migration007On(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  assert.equal((await migrator.migrateTo('005_job_groups')).error, undefined);
  await db.insertInto('accounts').values({ id: 'acc', email: 'a@example.com', tier: 'pro', password_hash: null, created_at: T0 }).execute();
  for (const m of ['m1', 'm2']) await db.insertInto('minds').values({ id: m, account_id: 'acc', name: m, created_at: T0, updated_at: T0 }).execute();
  await db.insertInto('digital_twins').values([
    { id: 't1', mind_id: 'm1', account_id: 'acc', name: 'Default', created_at: T0, updated_at: T0 },
    { id: 't2', mind_id: 'm2', account_id: 'acc', name: 'Default', created_at: T0, updated_at: T0 },
  ]).execute();
  const snapshot = (id: string, mind: string, twin: string | null, status: string, completed: string | null) => ({
    id, mind_id: mind, account_id: 'acc', artifact_id: `a-${id}`, digital_twin_id: twin, speaker: null, status, error_code: null, error_message: null,
    file_kind: null, person: null, memory_count: null, fidelity: null, reflections_error: null, created_at: T0, started_at: completed ? T0 : null, completed_at: completed,
  });
  await db.insertInto('snapshots').values([snapshot('s1', 'm1', null, 'completed', T1), snapshot('s2', 'm1', 't1', 'pending', null), snapshot('s3', 'm2', null, 'failed', T1)]).execute();

  assert.equal((await migrator.migrateToLatest()).error, undefined);
  const twins = await db.selectFrom('digital_twins').select(['id', 'is_default']).orderBy('id').execute();
  assert.deepEqual(twins.map((t) => [t.id, Number(t.is_default)]), [['t1', 1], ['t2', 1]], 'each mind’s twin is its default');
  const snaps = await db.selectFrom('snapshots').select(['id', 'digital_twin_id', 'mindset_date', 'updated_at']).orderBy('id').execute();
  assert.deepEqual(snaps, [
    { id: 's1', digital_twin_id: 't1', mindset_date: '2024-03-01', updated_at: T1 },
    { id: 's2', digital_twin_id: 't1', mindset_date: '2024-03-01', updated_at: T0 },
    { id: 's3', digital_twin_id: 't2', mindset_date: '2024-03-01', updated_at: T1 },
  ], 'snapshots made without a twin are linked to their mind’s default one');
  for (const table of ['snapshot_transcripts', 'snapshot_psychometrics']) {
    assert.deepEqual(await db.selectFrom(table).selectAll().execute(), []);
  }
}

describe('migration 007 on data written before it', () => {
  it('SQLite: marks the default twins, links snapshots to them, dates them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-m007-'));
    const db = new Kysely({ dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dir, 'db.sqlite')) }) });
    try {
      await migration007On(db);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL: the same', { skip: PG_SKIP }, async () => {
    const d = await createDatabase();
    dropped.push(d);
    const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: d.url, max: 2 }) }) });
    try {
      await migration007On(db);
    } finally {
      await db.destroy();
    }
  });
});

describe('snapshot management on PostgreSQL', { skip: PG_SKIP }, () => {
  it('dates, lists, links, simulates by twin, reads psychometrics and deletes snapshots', async () => {
    const d = await createDatabase();
    dropped.push(d);
    const srv = await startService({ DATABASE_URL: d.url });
    try {
      const sdk = srv.sdk();
      const { mind, digitalTwin } = await sdk.minds.create('Sam Okafor');
      const second = (await sdk.twins.create(mind.id, 'Second')).digitalTwin;
      const a = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'a.vtt', mindsetDate: '2022-02-02' });
      const b = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'b.vtt', digitalTwinId: second.id });
      for (const s of [a, b]) assert.equal((await waitFor(sdk, mind.id, s.mindAssessmentId)).status, 'completed');
      const list = await sdk.snapshots.list(mind.id).first();
      assert.equal(list.count, 2);
      assert.deepEqual(list.snapshots.map((s) => [s.id, s.digitalTwinId]), [[b.mindAssessmentId, second.id], [a.mindAssessmentId, digitalTwin.id]]);
      const details = await sdk.snapshots.get(mind.id, a.mindAssessmentId);
      assert.equal(details.mindsetDate, '2022-02-02');
      assert.equal(details.transcripts?.length, sampleInterview().length);
      assert.equal(details.psychometricCount, 5);
      assert.deepEqual((await sdk.simulate({ mindId: mind.id, digitalTwinId: second.id, scenario: { message: 'Coffee?' } })).snapshotIds, [b.mindAssessmentId]);
      assert.equal((await sdk.minds.psychometrics(mind.id)).snapshotIds.length, 2);
      assert.ok((await sdk.minds.topics(mind.id)).count > 0);
      await sdk.snapshots.unlink(mind.id, b.mindAssessmentId);
      assert.equal((await failure(sdk.simulate({ mindId: mind.id, digitalTwinId: second.id, scenario: { message: 'Coffee?' } }))).status, 409);
      assert.deepEqual(await sdk.snapshots.delete(mind.id, a.mindAssessmentId), { message: 'Snapshot deleted successfully', snapshotId: a.mindAssessmentId });
      assert.equal((await failure(sdk.simulate({ mindId: mind.id, scenario: { message: 'Coffee?' } }))).code, 'SNAPSHOT_NOT_READY');
      assert.equal((await sdk.snapshots.list(mind.id).first()).count, 1);
    } finally {
      await srv.close();
    }
  });
});
