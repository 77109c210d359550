/**
 * A panel survives its workers dying: an API process (no worker of its own) and worker processes
 * (`--worker-only`) over one database, leases of 1 s. While the panel runs, a worker answering a
 * unit is SIGKILLed after some units have stored their answers and before the others have; and
 * one unit already stored is handed out again as if its worker had died between its transaction's
 * commit and marking its job done (the kill often lands there by itself; if not, such a job is
 * made by hand). A new worker finishes the panel: completed, every (mind, question) answered
 * exactly once, every unit done once, the results counting exactly the answers, the redelivered
 * units storing nothing twice.
 *
 * On SQLite with one worker at a time; on PostgreSQL (TEST_DATABASE_URL) with two at once.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { PanelAnswer } from '@mindsim/sdk';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startWorker, type WorkerProcess } from '../testkit/kill-trials.ts';
import { allPanelAnswers, buildMinds, panelProblems, panelQuestions } from '../testkit/panels.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../testkit/scale.ts';
import { testSdk } from '../testkit/sdk.ts';
import { waitUntil } from '../testkit/wait.ts';

/** 8 minds × 50 questions: 400 answers in 8 units, a few seconds of work on a busy machine. */
const MINDS = 8;
const QUESTIONS = panelQuestions(50);
const ENV = { RUN_WORKER: 'false', JOB_LEASE_MS: '1000', WORKER_POLL_MS: '20', JOB_MAX_ATTEMPTS: '20' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The few SQL statements the test reads the database with (`?` placeholders), on either database. */
interface Sql {
  rows<T>(text: string, ...params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function sqliteSql(file: string): Sql {
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  return {
    rows: async <T,>(text: string, ...params: unknown[]) => {
      const st = db.prepare(text);
      return (st.reader ? st.all(...params) : (st.run(...params), [])) as T[];
    },
    close: async () => void db.close(),
  };
}

async function pgSql(url: string): Promise<Sql> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return {
    rows: async <T,>(text: string, ...params: unknown[]) => {
      let n = 0;
      return (await c.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
    },
    close: () => c.end(),
  };
}

interface JobRow {
  id: string;
  state: string;
  attempts: number;
  locked_by: string | null;
  payload: string;
}

/**
 * The scenario on one database: `workers` worker processes at first, one of them killed mid-panel
 * and one more started after the kill.
 */
async function killMidPanel(t: TestContext, srv: TestServer, sql: Sql, workers: number): Promise<void> {
  const started: WorkerProcess[] = [];
  const spawnWorker = () => {
    const w = startWorker(srv.env);
    started.push(w);
    return w;
  };
  const outputs = () => started.map((w, i) => `--- worker ${i + 1} (pid ${w.proc.pid}) ---\n${w.output().slice(-3000)}`).join('\n');
  try {
    for (let i = 0; i < workers; i++) spawnWorker();
    const sdk = testSdk(srv.baseUrl, srv.apiKey);
    const tMinds = Date.now();
    // Each mind its own words (the sample interview, tagged), so each unit builds its own memory.
    const mindIds = await buildMinds(
      sdk,
      Array.from({ length: MINDS }, (_, m) => teamsVtt(sampleInterview().map((turn) => ({ ...turn, text: `${turn.text} (panelist ${m + 1})` })))),
    );
    t.diagnostic(`${MINDS} minds built in ${((Date.now() - tMinds) / 1000).toFixed(1)} s`);
    const t0 = Date.now();
    const { panel } = await sdk.panels.create({ name: 'Kill mid-panel', mindIds, questions: QUESTIONS, selectedSimulationModel: 'mind-reasoner-standard' });
    assert.equal(panel.total, MINDS * QUESTIONS.length);
    const jobsOfPanel = () => sql.rows<JobRow>("select id, state, attempts, locked_by, payload from jobs where payload like ?", `%"panelId":"${panel.id}"%`);
    const stored = async () => Number((await sql.rows<{ n: number | string }>('select count(*) as n from panel_answers where panel_id = ?', panel.id))[0]?.n ?? 0);
    const heldBy = (jobs: readonly JobRow[], w: WorkerProcess) => jobs.filter((j) => j.state === 'running' && j.locked_by?.includes(`:${w.proc.pid}:`));

    const unitOf = (j: JobRow) => (JSON.parse(j.payload) as { unitId: string }).unitId;
    const pendingUnits = async () => new Set((await sql.rows<{ id: string }>("select id from panel_units where panel_id = ? and status = 'pending'", panel.id)).map((u) => u.id));

    // The kill: some answers are stored, and a worker is answering a unit whose answers are not.
    // Any live worker will do (with two, the other may take every unit while one is still
    // starting). Read after the kill (the dead cannot write), the unit must still be pending; if
    // the victim stored it between the read and the kill, a fresh worker takes its place and the
    // loop looks again.
    const dead = new Set<WorkerProcess>();
    /** Every job a killed worker held. */
    const killed: JobRow[] = [];
    for (const deadline = Date.now() + 30_000; ; ) {
      const n = await stored();
      const jobs = await jobsOfPanel();
      const pending = await pendingUnits();
      if (n >= panel.total) assert.fail(`the panel finished before the kill could land (make it bigger)\n${outputs()}`);
      const victim = n > 0 ? started.find((w) => !dead.has(w) && heldBy(jobs, w).some((j) => pending.has(unitOf(j)))) : undefined;
      if (victim) {
        await victim.kill();
        dead.add(victim);
        const held = heldBy(await jobsOfPanel(), victim);
        const stillPending = await pendingUnits();
        const midUnit = held.filter((j) => stillPending.has(unitOf(j)));
        killed.push(...held);
        t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: worker killed ${midUnit.length ? 'answering a unit' : 'after storing its unit'}, ${n} of ${panel.total} answers stored`);
        if (midUnit.length > 0) break;
        spawnWorker();
      } else {
        if (Date.now() > deadline) assert.fail(`never a stored unit with a worker answering another (${n} stored)\n${outputs()}`);
        await sleep(5);
      }
    }

    // A unit whose answers are stored while its job is still marked running: its worker died
    // between the commit and `complete`. The kill may have landed there by itself (the unit it
    // held is done); if not, a done unit's job is made so, its lease run out: handed out again.
    let doneUnits = new Map<string, number>();
    let inWindow: JobRow | undefined;
    // (A surviving worker may have stored a unit without marking its job done yet: a moment later it has.)
    const storedJob = await waitUntil(
      async () => {
        doneUnits = new Map(
          (await sql.rows<{ id: string; seq: number }>("select id, seq from panel_units where panel_id = ? and status = 'done'", panel.id)).map((u) => [u.id, u.seq]),
        );
        inWindow = killed.find((j) => doneUnits.has(unitOf(j)));
        return inWindow ?? (await jobsOfPanel()).find((j) => j.state === 'done' && doneUnits.has(unitOf(j)));
      },
      { what: () => `a unit done and its job with it\n${outputs()}`, intervalMs: 10 },
    );
    const doneSeq = doneUnits.get(unitOf(storedJob));
    const answersOfSeq = (seq: number | undefined) =>
      sql.rows<{ question_index: number; created_at: string }>('select question_index, created_at from panel_answers where panel_id = ? and unit_seq = ? order by question_index', panel.id, seq);
    const storedBefore = await answersOfSeq(doneSeq);
    assert.equal(storedBefore.length, QUESTIONS.length);
    if (inWindow) t.diagnostic('the kill landed between a unit\'s commit and its job marked done');
    else await sql.rows("update jobs set state = 'running', lease_until = ?, locked_by = 'dead-worker' where id = ?", new Date(Date.now() - 1000).toISOString(), storedJob.id);

    spawnWorker();
    const finished = await sdk.panels.wait(panel.id, { intervalMs: 50, maxIntervalMs: 200, timeoutMs: 60_000 }).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${outputs()}`);
    });
    t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: panel ${finished.status}`);
    // The panel may settle before the redelivered done unit runs: wait until every job of it is done.
    let jobs: JobRow[] = [];
    await waitUntil(async () => (jobs = await jobsOfPanel()).every((j) => j.state === 'done'), {
      what: () => `every job of the panel done (left: ${JSON.stringify(jobs.filter((j) => j.state !== 'done'))})\n${outputs()}`,
    });

    const answers: PanelAnswer[] = await allPanelAnswers(sdk, panel.id);
    const { panel: final } = await sdk.panels.get(panel.id);
    assert.deepEqual(panelProblems(final, answers, mindIds, QUESTIONS), [], outputs());
    // Settled once: the panel's finish time is the one it had when first seen final.
    assert.equal(final.finishedAt, finished.finishedAt);
    const units = await sql.rows<{ status: string; n: number | string }>('select status, count(*) as n from panel_units where panel_id = ? group by status', panel.id);
    assert.deepEqual(units.map((u) => [u.status, Number(u.n)]), [['done', MINDS]]);

    assert.equal(jobs.length, MINDS, 'one job per unit');
    const byId = new Map(jobs.map((j) => [j.id, j]));
    for (const k of killed) assert.ok((byId.get(k.id)?.attempts ?? 0) >= 2, `the killed worker's unit ${k.id} was delivered again`);
    assert.ok((byId.get(storedJob.id)?.attempts ?? 0) >= 2, 'the stored unit was delivered again');
    // … and stored nothing the second time: the same rows, written at the same moment.
    assert.deepEqual(await answersOfSeq(doneSeq), storedBefore);
    t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: deliveries ${jobs.map((j) => j.attempts).join(',')}`);
  } finally {
    await Promise.all(started.map((w) => w.kill()));
  }
}

// The two databases at once: each waits mostly on its processes (starting, leases running out).
describe('panels under worker crashes', { concurrency: 2 }, () => {
  describe('a panel on SQLite, its worker SIGKILLed mid-panel', () => {
    let srv: TestServer | undefined;
    let sql: Sql | undefined;
    after(async () => {
      await sql?.close();
      await srv?.stop();
    });

    it('completes with every answer stored exactly once', async (t) => {
      const t0 = Date.now();
      srv = await startServer(ENV);
      t.diagnostic(`API process started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      sql = sqliteSql(path.join(srv.dataDir, 'mindsim.sqlite'));
      await killMidPanel(t, srv, sql, 1);
    });
  });

  describe('a panel on PostgreSQL with two workers, one SIGKILLed mid-panel', { skip: PG_SKIP }, () => {
    let db: TestDatabase | undefined;
    let srv: TestServer | undefined;
    let sql: Sql | undefined;
    after(async () => {
      await sql?.close();
      await srv?.stop();
      await db?.drop();
    });

    it('completes with every answer stored exactly once', async (t) => {
      const t0 = Date.now();
      db = await createDatabase();
      srv = await startServer({ ...ENV, DATABASE_URL: db.url });
      t.diagnostic(`database made, API process started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      sql = await pgSql(db.url);
      await killMidPanel(t, srv, sql, 2);
    });
  });
});
