/**
 * Retention (issue 25, item 5): an account's `retentionDays` erases, on the sweep's schedule, the
 * snapshots (rows, blobs, cached memory), conversations and panels older than that, through the
 * existing erasure, with one access-log row per item (actor `system`), and nothing younger and
 * nothing of an account without retention. The service's clock is moved (testkit/clock.ts), so the
 * sweep queued for an hour later becomes due; the test waits for states, never for time. On SQLite
 * and, with TEST_DATABASE_URL, PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/store/db/kysely.ts';
import { RETENTION_ACTIONS, RETENTION_SWEEP } from '../../src/domain/retention.ts';
import { isUniqueViolation } from '../../src/store/db/dialect.ts';
import { interviewMind, statusOf, type TestSdk } from '../../testkit/sdk.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { testClock } from '../../testkit/clock.ts';
import { waitUntil } from '../../testkit/wait.ts';

const DAY = 24 * 3600_000;
const INTERVAL = 3600_000;

/** Waits until `check` holds (a state, not a time). */
const until = (what: string, check: () => Promise<boolean>) => waitUntil(check, { what, timeoutMs: 60_000 });

function retentionSuite(name: string, skip: string | false, env: () => Promise<Record<string, string>>, cleanup: () => Promise<void>) {
  describe(`the retention sweep (${name})`, { skip }, () => {
    let srv: Service;
    const clock = testClock();
    let sdk: TestSdk;
    let otherSdk: TestSdk;
    const ids = { old: '', oldSnapshot: '', oldArtifact: '', oldSimulation: '', panel: '', fresh: '', freshSimulation: '', other: '', otherSimulation: '' };

    const sweeps = async () => {
      const rows = await srv.ctx.store.db.selectFrom('jobs').select(['state', 'run_at']).where('kind', '=', RETENTION_SWEEP).execute();
      return { done: rows.filter((r) => r.state === 'done').length, queued: rows.filter((r) => r.state === 'queued').map((r) => r.run_at) };
    };

    /** Every table and text column holding one of these ids, access_log aside (found by introspection: both databases). */
    async function rowsNaming(needles: string[]): Promise<string[]> {
      const found = new Set<string>();
      for (const table of await srv.ctx.store.db.introspection.getTables()) {
        if (table.name === 'access_log' || table.name.startsWith('kysely_')) continue;
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(srv.ctx.store.db);
        for (const row of rows) {
          for (const [col, v] of Object.entries(row)) if (typeof v === 'string' && needles.some((n) => v.includes(n))) found.add(`${table.name}.${col}`);
        }
      }
      return [...found].sort();
    }

    before(async () => {
      srv = await startService({ RETENTION_INTERVAL_MS: String(INTERVAL), WORKER_POLL_MS: '20', ...(await env()) }, { rt: clock });
      sdk = srv.sdk();
      otherSdk = srv.sdk((await srv.admin.createAccount(`retention-other-${name.toLowerCase()}@example.com`, 'standard')).apiKey);
    });
    after(async () => {
      await srv?.close();
      await cleanup();
    });

    it('a worker queues one sweep at its start, runs it, and queues the next an interval later', async () => {
      await until('the first sweep', async () => (await sweeps()).done >= 1);
      const { queued } = await sweeps();
      assert.equal(queued.length, 1);
      const due = Date.parse(queued[0] ?? '');
      assert.ok(due > clock.now().getTime() && due <= clock.now().getTime() + INTERVAL, `the next sweep is due within the interval: ${queued[0]}`);
      await assert.rejects(srv.ctx.store.queue.enqueue(RETENTION_SWEEP, {}), (err) => isUniqueViolation(err), 'a second queued sweep is refused');
    });

    it("erases, once the clock passes the account's retention, the old snapshots, conversations and panels, and logs each", async () => {
      await srv.ctx.store.db.updateTable('accounts').set({ retention_days: 30 }).where('id', '=', srv.ownerAccountId).execute();
      ids.old = await interviewMind(sdk, 'Old Person');
      const [snapshot] = (await sdk.snapshots.list(ids.old).first()).snapshots;
      ids.oldSnapshot = snapshot?.id ?? '';
      ids.oldArtifact = snapshot?.artifactId ?? '';
      ids.oldSimulation = (await sdk.simulate({ mindId: ids.old, scenario: { message: 'How do you start your day?' } })).simulationId;
      const panel = await sdk.panels.create({ mindIds: [ids.old], questions: [{ id: 'remote', text: 'Do you prefer working remotely?', type: 'single', options: ['Yes', 'No'] }] });
      ids.panel = (await sdk.panels.wait(panel.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 60_000 })).id;
      ids.other = await interviewMind(otherSdk, 'Kept Elsewhere');
      ids.otherSimulation = (await otherSdk.simulate({ mindId: ids.other, scenario: { message: 'Coffee?' } })).simulationId;
      assert.ok(srv.ctx.memories.heldSnapshotIds().includes(ids.oldSnapshot), 'the cache holds its memory before');
      assert.notEqual(await srv.ctx.blobs.size(`artifacts/${ids.old}/${ids.oldArtifact}`), null);
      assert.equal((await sweeps()).done, 1, 'nothing is due before the clock moves');

      clock.advance(31 * DAY);
      ids.fresh = await interviewMind(sdk, 'New Person');
      ids.freshSimulation = (await sdk.simulate({ mindId: ids.fresh, scenario: { message: 'How do you start your day?' } })).simulationId;
      await until('the old snapshot erased', async () => (await statusOf(sdk.snapshots.status(ids.old, ids.oldSnapshot))) === 404);
      await until('the next sweep queued', async () => (await sweeps()).done >= 2 && (await sweeps()).queued.length === 1);

      assert.equal(await statusOf(sdk.simulations.get(ids.oldSimulation)), 404);
      assert.equal(await statusOf(sdk.panels.get(ids.panel)), 404);
      assert.equal(await statusOf(sdk.minds.get(ids.old)), 200, 'the mind itself is kept');
      assert.equal(await srv.ctx.blobs.size(`artifacts/${ids.old}/${ids.oldArtifact}`), null, 'its upload is deleted');
      assert.ok(!srv.ctx.memories.heldSnapshotIds().includes(ids.oldSnapshot), 'the cache dropped its memory');
      const simulate = await statusOf(sdk.simulate({ mindId: ids.old, scenario: { message: 'Hello?' } }));
      assert.equal(simulate, 409, 'nothing left to answer from');
      assert.deepEqual(await rowsNaming([ids.oldSnapshot, ids.oldArtifact, ids.oldSimulation, ids.panel]), [], 'no row outside the access log names what was erased');

      const logged = await srv.ctx.store.db
        .selectFrom('access_log')
        .select(['action', 'mind_id', 'resource_id', 'ip'])
        .where('account_id', '=', srv.ownerAccountId)
        .where('actor', '=', 'system')
        .orderBy('action')
        .execute();
      assert.deepEqual(
        logged.map((r) => [r.action, r.mind_id, r.resource_id, r.ip]),
        [
          [RETENTION_ACTIONS.panel, ids.old, ids.panel, null],
          [RETENTION_ACTIONS.simulation, ids.old, ids.oldSimulation, null],
          [RETENTION_ACTIONS.snapshot, ids.old, ids.oldSnapshot, null],
        ],
      );
      const audit = await srv.ctx.store.repos.accessLog.ofMind(srv.ownerAccountId, ids.old);
      assert.ok(audit.some((r) => r.action === RETENTION_ACTIONS.snapshot), "the mind's access log says so");
    });

    it('keeps what is younger, and everything of an account without retention', async () => {
      assert.equal((await sdk.snapshots.list(ids.fresh).first()).snapshots[0]?.status, 'completed');
      assert.equal(await statusOf(sdk.simulations.get(ids.freshSimulation)), 200);
      assert.equal((await otherSdk.snapshots.list(ids.other).first()).snapshots[0]?.status, 'completed');
      assert.equal(await statusOf(otherSdk.simulations.get(ids.otherSimulation)), 200);
      const otherLog = await srv.ctx.store.db.selectFrom('access_log').select('id').where('actor', '=', 'system').where('account_id', '<>', srv.ownerAccountId).execute();
      assert.deepEqual(otherLog, []);
    });
  });
}

retentionSuite('SQLite', false, () => Promise.resolve({}), () => Promise.resolve());

let pg: TestDatabase | null = null;
retentionSuite(
  'PostgreSQL',
  PG_SKIP,
  async () => {
    pg = await createDatabase();
    return { DATABASE_URL: pg.url };
  },
  async () => {
    await pg?.drop();
    pg = null;
  },
);
