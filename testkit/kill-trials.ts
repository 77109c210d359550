/**
 * Kill trials: the API (in this process, without a worker) and worker processes on one data
 * folder; each trial starts a worker, waits until a snapshot is being processed, and SIGKILLs the
 * worker at a random moment of it. A last worker then finishes the queue. Shared by test/abuse.kill.test.ts (a few trials)
 * and bench/kill-trials.ts (`npm run bench:kill`, many).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seededRandom } from '../src/memory/seeded-random.ts';
import { sampleInterview, teamsVtt } from './fixtures.ts';
import type { MindsimClient } from '@mindsim/sdk';
import { blobOf } from './sdk.ts';
import { startService } from './service.ts';
import { waitUntil } from './wait.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The sample interview repeated, each copy later in time and tagged, so processing takes a while (~3.4 kB a copy). */
export function longVtt(copies: number, tag = ''): string {
  const turns = sampleInterview();
  const all = [];
  for (let i = 0; i < copies; i++) for (const t of turns) all.push({ ...t, text: `${t.text} (${tag} part ${i})` });
  return teamsVtt(all);
}

export interface WorkerProcess {
  proc: ChildProcess;
  output(): string;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
}

/** `node src/main.ts --worker-only` with the given environment (the API's, so the same database). */
export function startWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  let out = '';
  const proc = spawn(process.execPath, ['src/main.ts', '--worker-only'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const kill = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await gone;
  };
  return { proc, output: () => out, kill };
}

export interface KillTrialReport {
  trials: number;
  snapshots: number;
  /** Kills that landed while the API reported a snapshot as processing. */
  killedMidProcessing: number;
  /** Job deliveries beyond one per snapshot (attempts lost to the kills). */
  redeliveries: number;
  seconds: number;
  /** Everything that is not as it must be; empty when every snapshot completed exactly once. */
  problems: string[];
}

interface Snap {
  id: string;
  completedAt: string | null;
  /** The last status answer, for the report. */
  last?: unknown;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface KillTrialOptions {
  trials: number;
  /** Snapshots queued before the first trial (default: one per trial). */
  snapshots?: number;
  /**
   * Copies of the sample interview per transcript (~3.4 kB and ~800 words each). 20 by default: the
   * passages' embeddings (~0.45 ms of CPU per word) make each snapshot take a few seconds, long enough
   * for a kill to land mid-processing and short enough to finish well inside the wait.
   */
  copies?: number;
  /** The kill comes at a random moment up to this long after the worker claimed a job. */
  maxKillDelayMs?: number;
  seed?: number;
  log?: (line: string) => void;
}

export async function killTrials(opts: KillTrialOptions): Promise<KillTrialReport> {
  const t0 = Date.now();
  const rand = seededRandom(opts.seed ?? 7);
  const log = opts.log ?? (() => {});
  // Killed attempts count: enough attempts that no snapshot runs out of them.
  const srv = await startService({ RUN_WORKER: 'false', JOB_LEASE_MS: '1000', WORKER_POLL_MS: '20', JOB_MAX_ATTEMPTS: '100' });
  const workers: WorkerProcess[] = [];
  const problems: string[] = [];
  let killedMidProcessing = 0;
  const db = () => new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true, fileMustExist: true });
  let jobs: Database.Database | null = null;
  /** Jobs the worker process holds right now (its worker id is host:pid:…). */
  const held = (w: WorkerProcess) =>
    (jobs?.prepare("select count(*) as n from jobs where kind = 'process-snapshot' and state = 'running' and locked_by like ?").get(`%:${w.proc.pid}:%`) as { n: number }).n;
  const at = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  try {
    const api = srv.sdk();
    const mindId = (await api.minds.create('Kill trials')).mind.id;
    const snaps: Snap[] = [];
    for (let i = 0; i < (opts.snapshots ?? opts.trials); i++) {
      const { artifactId } = await api.uploads.upload(mindId, blobOf(longVtt(opts.copies ?? 20, `k${i}`)), { fileName: `k${i}.vtt` });
      const r = await api.snapshots.create(mindId, { artifactId });
      snaps.push({ id: r.mindAssessmentId, completedAt: null });
    }
    const statuses = async () => Promise.all(snaps.map(async (s) => observe(api, mindId, s, problems)));
    jobs = db();
    log(`${at()}: ${snaps.length} snapshots queued`);

    // The next worker starts while the current one works (a process takes seconds to start), so
    // two may hold jobs at once, as in a deployment with several.
    const spawnWorker = () => {
      const w = startWorker(srv.env);
      workers.push(w);
      return w;
    };
    let next = spawnWorker();
    for (let trial = 0; trial < opts.trials; trial++) {
      if ((await statuses()).every((st) => st === 'completed')) {
        log(`trial ${trial + 1}: nothing left to process`);
        break;
      }
      const w = next;
      await waitUntil(() => held(w) > 0, { what: () => `the worker to claim a job:\n${w.output()}`, intervalMs: 10 });
      next = spawnWorker();
      await sleep(Math.floor(rand() * (opts.maxKillDelayMs ?? 400))); // somewhere in parsing, memory building or writing
      const midway = held(w) > 0;
      await w.kill();
      await statuses();
      if (midway) killedMidProcessing++;
      log(`${at()}: trial ${trial + 1}, worker killed ${midway ? 'while processing' : 'between jobs'}`);
    }

    const last = next;
    await waitUntil(async () => (await statuses()).every((st) => st === 'completed' || st === 'failed'), {
      what: () => `the snapshots done:\n${last.output()}`,
      timeoutMs: 120_000,
    });
    log(`${at()}: all done: ${snaps.map((x) => { const l = x.last as { startedAt: string; completedAt: string }; return `${l.startedAt.slice(11, 21)}→${l.completedAt.slice(11, 21)}`; }).join(', ')}`);
    // A completed snapshot stays completed at the same time: nothing completed it a second time. Once
    // no job of them is queued or running, nothing can: their statuses are read once more then.
    const unfinished = () => (jobs?.prepare("select count(*) as n from jobs where kind = 'process-snapshot' and state in ('queued', 'running')").get() as { n: number }).n;
    await waitUntil(() => unfinished() === 0, { what: 'no snapshot job queued or running' });
    await statuses();
    for (const s of snaps) if (!s.completedAt) problems.push(`snapshot ${s.id} did not complete: ${JSON.stringify(s.last)}`);
    await last.kill();
    const redeliveries = checkDatabase(path.join(srv.dataDir, 'mindsim.sqlite'), snaps, problems);
    return { trials: opts.trials, snapshots: snaps.length, killedMidProcessing, redeliveries, seconds: (Date.now() - t0) / 1000, problems };
  } finally {
    jobs?.close();
    for (const w of workers) await w.kill();
    await srv.close();
  }
}

async function observe(api: MindsimClient, mindId: string, s: Snap, problems: string[]): Promise<string> {
  const st = await api.snapshots.status(mindId, s.id);
  s.last = st;
  if (s.completedAt && (st.status !== 'completed' || st.completedAt !== s.completedAt)) {
    problems.push(`snapshot ${s.id} changed after completing: ${st.status} at ${st.completedAt} (was ${s.completedAt})`);
  }
  if (st.status === 'completed') s.completedAt ??= st.completedAt;
  return st.status;
}

/** One job per snapshot, done; each memory written once; returns the deliveries beyond the first. */
function checkDatabase(file: string, snaps: Snap[], problems: string[]): number {
  const db = new Database(file, { readonly: true });
  try {
    let redeliveries = 0;
    for (const s of snaps) {
      const mem = db.prepare('select count(*) as n, count(distinct seq) as d from memories where snapshot_id = ?').get(s.id) as { n: number; d: number };
      const row = db.prepare('select memory_count as c, status from snapshots where id = ?').get(s.id) as { c: number; status: string };
      if (mem.n === 0 || mem.n !== mem.d || mem.n !== row.c) problems.push(`snapshot ${s.id}: ${mem.n} memories, ${mem.d} distinct, ${row.c} counted`);
      const jobs = db.prepare('select state, attempts from jobs where payload like ?').all(`%${s.id}%`) as Array<{ state: string; attempts: number }>;
      if (jobs.length !== 1 || jobs[0]?.state !== 'done') problems.push(`snapshot ${s.id}: jobs ${JSON.stringify(jobs)}`);
      redeliveries += Math.max(0, (jobs[0]?.attempts ?? 1) - 1);
    }
    return redeliveries;
  } finally {
    db.close();
  }
}
