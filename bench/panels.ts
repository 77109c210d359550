/**
 * Panels: 100 minds × 50 typed questions (5,000 answers, the offline engine), timed end to end from
 * POST /panels until a GET sees it completed, (a) on the default single process (API + in-process
 * worker, SQLite) and (b) on PostgreSQL with one API process and two worker processes. Each mind
 * is its own generated interview of ~6,500 words (a two-hour interview), built before the panel
 * (setup, timed apart). The baseline, measured in the same run on the same minds: the engine alone
 * in this process (each mind's memories read, indexed, every question answered; no queue, no
 * HTTP, nothing stored), the work a panel cannot avoid.
 *
 * Used by bench/run.ts; `npm run bench:panels` runs it alone and writes its section into BENCHMARKS.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Panel } from '@mindsim/sdk';
import Database from 'better-sqlite3';
import pg from 'pg';
import { compose } from '../src/composition.ts';
import { loadConfig } from '../src/config.ts';
import { normalizeQuestions } from '../src/domain/panel.ts';
import { GroundedEngine } from '../src/engines/grounded.ts';
import { MindMemory, preloadMindMemory } from '../src/memory/mind-memory.ts';
import { longInterview, teamsVtt } from '../testkit/fixtures.ts';
import { allPanelAnswers, buildMinds, panelProblems, panelQuestions } from '../testkit/panels.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { createDatabase, pgAdminUrl, type TestDatabase } from '../testkit/scale.ts';
import { testSdk, type TestSdk } from '../testkit/sdk.ts';
import { rssBytes } from './measure.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const MINDS = Number(process.env.BENCH_PANEL_MINDS ?? 100);
const QUESTIONS = Number(process.env.BENCH_PANEL_QUESTIONS ?? 50);
/** Words per mind: the two-hour interview of the snapshot benchmark. */
const WORDS = 6_500;
const TARGET_SECONDS = 10;
/** How often the client reads the panel (each read computes its results) and samples RSS. */
const POLL_MS = 200;
const RSS_MS = 50;
/** As `npm start` runs (bench/run.ts's services). */
const SERVICE_ENV = { LOG_LEVEL: 'warn', WORKER_POLL_MS: '250' };
const MODEL = 'mind-reasoner-standard';

export interface ProcessUse {
  name: string;
  /** After the minds were built, before the panel. */
  beforeMb: number;
  peakMb: number;
  /** CPU time (user + system, every thread) the process spent during the panel. */
  cpuSeconds: number;
}

/** Where a panel's time went, from the stored times: each unit's claim → answers ready, and what lies between. */
export interface UnitTimes {
  /** Sum over the units of claimed → answered (reading the unit, building the memory, answering). */
  inUnitsSeconds: number;
  /** The rest of each worker's time from the panel's creation to its end: storing, marking done, claiming, waiting. */
  betweenSeconds: number;
  /** Each worker process's first unit (it loads wink-nlp and the sentence encoder if nothing did before), the longest. */
  firstUnitMs: number;
  medianUnitMs: number;
  /** Per worker: how many units it answered. */
  perWorker: number[];
}

/** Reads the database of the panel's run: `?` placeholders. */
type Rows = <T>(text: string, ...params: unknown[]) => Promise<T[]>;

export interface PanelRun {
  setup: string;
  /** 1: the first panel of the processes (the worker's code and caches cold); 2: the next, same minds and questions. */
  round: number;
  units: UnitTimes;
  /** POST /panels until a GET saw it completed, at the client. */
  seconds: number;
  /** The panel's own createdAt → finishedAt. */
  serverSeconds: number;
  answers: number;
  rss: ProcessUse[];
  problems: string[];
}

/** Setup phases, in order, and their seconds (not part of a panel's time). */
export interface SetupPhases {
  setup: string;
  phases: Array<{ phase: string; seconds: number }>;
}

export interface EngineAlone {
  minds: number;
  answers: number;
  readSeconds: number;
  buildSeconds: number;
  answerSeconds: number;
}

export interface PanelBench {
  minds: number;
  questions: number;
  words: number;
  runs: PanelRun[];
  setups: SetupPhases[];
  /** The engine alone, twice in a row: [first pass, second pass]. */
  engine: EngineAlone[];
  at: string;
}

const mb = (b: number) => b / 1024 / 1024;
const since = (t0: number) => (performance.now() - t0) / 1000;

/** Each mind its own interview: longInterview with a seed per mind. */
const transcripts = () => Array.from({ length: MINDS }, (_, i) => teamsVtt(longInterview(WORDS, 1_000 + i)));

/** CPU seconds (user + system, all threads) a process has used so far, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples the processes' RSS every RSS_MS until stopped; keeps each one's peak and the CPU time they spent meanwhile. */
function rssSampler(procs: Array<{ name: string; pid: number }>): { stop(): ProcessUse[] } {
  const out = procs.map((p) => ({ name: p.name, pid: p.pid, beforeMb: mb(rssBytes(p.pid)), peakMb: 0, cpu0: cpuSeconds(p.pid) }));
  const sample = () => {
    for (const p of out) p.peakMb = Math.max(p.peakMb, mb(rssBytes(p.pid)));
  };
  sample();
  const timer = setInterval(sample, RSS_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return out.map(({ name, pid, beforeMb, peakMb, cpu0 }) => ({ name, beforeMb, peakMb, cpuSeconds: cpuSeconds(pid) - cpu0 }));
    },
  };
}

async function unitTimes(rows: Rows, panel: Panel): Promise<UnitTimes> {
  const units = await rows<{ claimed_at: string; finished_at: string; locked_by: string }>(
    "select j.claimed_at, j.locked_by, u.finished_at from panel_units u join jobs j on j.payload like '%' || u.id || '%' where u.panel_id = ?",
    panel.id,
  );
  const created = Date.parse(panel.createdAt);
  const finished = Date.parse(panel.finishedAt ?? '');
  const byWorker = new Map<string, Array<{ claimed: number; done: number }>>();
  for (const u of units) byWorker.set(u.locked_by, [...(byWorker.get(u.locked_by) ?? []), { claimed: Date.parse(u.claimed_at), done: Date.parse(u.finished_at) }]);
  let inUnits = 0;
  let between = 0;
  let firstUnitMs = 0;
  for (const list of byWorker.values()) {
    list.sort((a, b) => a.claimed - b.claimed);
    let at = created;
    for (const u of list) {
      between += u.claimed - at;
      inUnits += u.done - u.claimed;
      at = u.done;
    }
    between += finished - at;
    firstUnitMs = Math.max(firstUnitMs, (list[0]?.done ?? 0) - (list[0]?.claimed ?? 0));
  }
  const durations = units.map((u) => Date.parse(u.finished_at) - Date.parse(u.claimed_at)).sort((a, b) => a - b);
  return {
    inUnitsSeconds: inUnits / 1000,
    betweenSeconds: between / 1000,
    firstUnitMs,
    medianUnitMs: durations[durations.length >> 1] ?? 0,
    perWorker: [...byWorker.values()].map((l) => l.length),
  };
}

/** Creates the panel and reads it every POLL_MS until it is final; checks every answer once it is. */
async function timePanel(sdk: TestSdk, mindIds: string[], procs: Array<{ name: string; pid: number }>, rows: Rows) {
  const questions = panelQuestions(QUESTIONS);
  const rss = rssSampler(procs);
  const t0 = performance.now();
  const { panel: created } = await sdk.panels.create({ name: 'Benchmark panel', mindIds, questions, selectedSimulationModel: MODEL });
  let panel: Panel = created;
  for (;;) {
    ({ panel } = await sdk.panels.get(created.id));
    if (panel.status !== 'queued' && panel.status !== 'running') break;
    if (since(t0) > 600) throw new Error(`panel still ${panel.status} after 10 minutes: ${panel.done} of ${panel.total}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const seconds = since(t0);
  const peaks = rss.stop();
  const answers = await allPanelAnswers(sdk, panel.id);
  return {
    seconds,
    serverSeconds: (Date.parse(panel.finishedAt ?? '') - Date.parse(panel.createdAt)) / 1000,
    answers: panel.done,
    rss: peaks,
    problems: panelProblems(panel, answers, mindIds, questions),
    units: await unitTimes(rows, panel),
  };
}

const SINGLE = 'one process (API + worker), SQLite';

/** (a) The default single process: API and worker in one, SQLite; two panels, then the baseline on the same minds. */
async function singleProcess(): Promise<{ runs: PanelRun[]; setup: SetupPhases; engine: EngineAlone[] }> {
  const phases: SetupPhases['phases'] = [];
  let t0 = performance.now();
  const srv = await startServer(SERVICE_ENV);
  phases.push({ phase: 'service start', seconds: since(t0) });
  try {
    const sdk = testSdk(srv.baseUrl, srv.apiKey);
    const vtts = transcripts();
    t0 = performance.now();
    const mindIds = await buildMinds(sdk, vtts, 600_000);
    phases.push({ phase: `building ${MINDS} minds (upload + snapshot processing)`, seconds: since(t0) });
    const db = new Database(path.join(srv.dataDir, 'mindsim.sqlite'), { readonly: true, fileMustExist: true });
    const rows: Rows = async <T,>(text: string, ...params: unknown[]) => db.prepare(text).all(...params) as T[];
    const runs: PanelRun[] = [];
    try {
      for (const round of [1, 2]) {
        runs.push({ setup: SINGLE, round, ...(await timePanel(sdk, mindIds, [{ name: 'API + worker', pid: srv.proc.pid ?? 0 }], rows)) });
        process.stderr.write(`panels, one process, panel ${round}: ${runs.at(-1)?.seconds.toFixed(1)} s\n`);
      }
    } finally {
      db.close();
    }
    const engine = [await engineAlone(srv, mindIds), await engineAlone(srv, mindIds)];
    return { runs, setup: { setup: SINGLE, phases }, engine };
  } finally {
    await srv.stop();
    fs.rmSync(srv.dataDir, { recursive: true, force: true });
  }
}

/** `--worker-only` processes on the API's environment, resolved once each says it started. */
async function startWorkers(env: NodeJS.ProcessEnv, n: number): Promise<ChildProcess[]> {
  const procs: ChildProcess[] = [];
  await Promise.all(
    Array.from({ length: n }, () => {
      // LOG_LEVEL=info only to see the line that says it started; the worker logs no line per job.
      const p = spawn(process.execPath, ['src/main.ts', '--worker-only'], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
      procs.push(p);
      return new Promise<void>((resolve, reject) => {
        p.stdout?.on('data', (d: Buffer) => d.toString().includes('service started') && resolve());
        p.once('exit', () => reject(new Error('a worker exited at start')));
      });
    }),
  );
  return procs;
}

const stopAll = (procs: readonly ChildProcess[]) =>
  Promise.all(procs.map((p) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : (p.once('exit', resolve), p.kill('SIGTERM'))))));

/**
 * (b) PostgreSQL: one API process without a worker; the minds built by two worker processes, which
 * then stop; then one fresh worker process answers two panels (same minds and questions), and
 * two fresh worker processes two more. Workers are started and idle before their first panel.
 */
async function onPostgres(): Promise<{ runs: PanelRun[]; setups: SetupPhases[] }> {
  const runs: PanelRun[] = [];
  const setups: SetupPhases[] = [];
  let db: TestDatabase | null = null;
  let srv: TestServer | null = null;
  let workers: ChildProcess[] = [];
  let pgClient: pg.Client | null = null;
  try {
    const phases: SetupPhases['phases'] = [];
    let t0 = performance.now();
    db = await createDatabase();
    srv = await startServer({ ...SERVICE_ENV, DATABASE_URL: db.url, RUN_WORKER: 'false' });
    phases.push({ phase: 'database + API process start', seconds: since(t0) });
    t0 = performance.now();
    workers = await startWorkers(srv.env, 2);
    phases.push({ phase: 'two worker processes start', seconds: since(t0) });
    const sdk = testSdk(srv.baseUrl, srv.apiKey);
    const vtts = transcripts();
    t0 = performance.now();
    const mindIds = await buildMinds(sdk, vtts, 600_000);
    phases.push({ phase: `building ${MINDS} minds (upload + snapshot processing by two workers)`, seconds: since(t0) });
    await stopAll(workers);
    setups.push({ setup: 'PostgreSQL: the minds, for both', phases });
    pgClient = new pg.Client({ connectionString: db.url });
    await pgClient.connect();
    const client = pgClient;
    const rows: Rows = async <T,>(text: string, ...params: unknown[]) => {
      let k = 0;
      return (await client.query(text.replace(/\?/g, () => `$${++k}`), params)).rows as T[];
    };
    for (const n of [1, 2]) {
      const setup = `PostgreSQL: API process + ${n === 1 ? 'one worker process' : 'two worker processes'}`;
      t0 = performance.now();
      workers = await startWorkers(srv.env, n);
      setups.push({ setup, phases: [{ phase: `${n === 1 ? 'one fresh worker process' : 'two fresh worker processes'} start`, seconds: since(t0) }] });
      const procs = [{ name: 'API', pid: srv.proc.pid ?? 0 }, ...workers.map((w, i) => ({ name: `worker ${i + 1}`, pid: w.pid ?? 0 }))];
      for (const round of [1, 2]) {
        runs.push({ setup, round, ...(await timePanel(sdk, mindIds, procs, rows)) });
        process.stderr.write(`panels, PostgreSQL with ${n} worker(s), panel ${round}: ${runs.at(-1)?.seconds.toFixed(1)} s\n`);
      }
      await stopAll(workers);
    }
    return { runs, setups };
  } finally {
    await pgClient?.end();
    await stopAll(workers);
    await srv?.stop();
    await db?.drop();
  }
}

/**
 * The baseline: in this process, over the single-process service's database (read only), each
 * mind's memories read, its indexes built and every question answered by the offline engine, one
 * mind after another as one worker would; nothing queued, sent or stored.
 */
async function engineAlone(srv: TestServer, mindIds: readonly string[]): Promise<EngineAlone> {
  const ctx = await compose(loadConfig(srv.env));
  try {
    preloadMindMemory();
    await ctx.searcher.warmUp();
    const engine = new GroundedEngine(ctx.searcher);
    const questions = normalizeQuestions(panelQuestions(QUESTIONS));
    const { snapshots } = ctx.store.repos;
    let readSeconds = 0;
    let buildSeconds = 0;
    let answerSeconds = 0;
    let answers = 0;
    for (const [i, mindId] of mindIds.entries()) {
      let t0 = performance.now();
      const ids = (await snapshots.completedIds(mindId)).map((r) => r.id);
      const stored = await snapshots.memoriesOf(ids);
      const passages = await ctx.store.repos.passages.of(ids);
      readSeconds += since(t0);
      t0 = performance.now();
      const memory = MindMemory.build(ids.join(','), stored, passages, ctx.searcher.encoderId);
      buildSeconds += since(t0);
      t0 = performance.now();
      for (const question of questions) {
        await engine.answerQuestion({ mindName: `Panelist ${i + 1}`, memory, question });
        answers++;
      }
      answerSeconds += since(t0);
    }
    return { minds: mindIds.length, answers, readSeconds, buildSeconds, answerSeconds };
  } finally {
    await ctx.close();
  }
}

export async function panelBench(opts: { postgres?: boolean } = {}): Promise<PanelBench> {
  const single = await singleProcess();
  const runs = [...single.runs];
  const setups = [single.setup];
  if (opts.postgres ?? pgAdminUrl !== null) {
    const onPg = await onPostgres();
    runs.push(...onPg.runs);
    setups.push(...onPg.setups);
  }
  return { minds: MINDS, questions: QUESTIONS, words: WORDS, runs, setups, engine: single.engine, at: new Date().toISOString() };
}

const f1 = (n: number) => n.toFixed(1);

const ROUND = ['', '1st (fresh processes)', '2nd (same processes)'];
const engineTotal = (e: EngineAlone) => e.readSeconds + e.buildSeconds + e.answerSeconds;

export function renderPanels(b: PanelBench): string[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const total = b.minds * b.questions;
  const run = (setup: string, round: number) => b.runs.find((r) => r.setup.startsWith(setup) && r.round === round);
  const single = [run(SINGLE, 1), run(SINGLE, 2)];
  const pgTwo = [run('PostgreSQL: API process + two', 1), run('PostgreSQL: API process + two', 2)];
  const pgOne = [run('PostgreSQL: API process + one', 1), run('PostgreSQL: API process + one', 2)];
  const s = (r: PanelRun | undefined) => (r ? `${f1(r.seconds)} s` : '–');
  const baseline = (e: EngineAlone, i: number) =>
    `${i === 0 ? 'first pass' : 'second pass'} ${f1(engineTotal(e))} s (reading ${f1(e.readSeconds)} s, indexing ${f1(e.buildSeconds)} s, ` +
    `answering ${f1(e.answerSeconds)} s: ${((e.answerSeconds / e.answers) * 1000).toFixed(2)} ms an answer), ${Math.round(e.answers / engineTotal(e))} answers/s`;
  const singleVerdict = single[0]
    ? `${single[0].seconds <= TARGET_SECONDS ? 'met' : 'not met'}: ${s(single[0])} for the first panel of the process, ${s(single[1])} for the second`
    : 'not measured';
  const faster = (round: number) => {
    const two = pgTwo[round - 1];
    const one = single[round - 1];
    return two && one ? `${two.seconds < one.seconds ? 'met' : 'not met'} for the ${ROUND[round]?.replace(/ \(.*/, '')} panel (${s(two)}; the single process ${s(one)}, one worker on PostgreSQL ${s(pgOne[round - 1])})` : '';
  };
  const pgVerdict = pgTwo[0] && single[0] ? `${faster(1)}; ${faster(2)}` : 'not measured (TEST_DATABASE_URL not set)';
  const growth = Math.max(0, ...b.runs.filter((r) => r.round === 2).flatMap((r) => r.rss.map((p) => p.peakMb - p.beforeMb)));
  return [
    '## Panels',
    '',
    `Run: ${b.at} on ${os.cpus().length} × ${cpu}, ${Math.round(mb(os.totalmem()))} MiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}.`,
    'Produced by `npm run bench:panels` (bench/panels.ts, which writes this section; `npm run bench` runs it too). Set `TEST_DATABASE_URL` for the PostgreSQL rows.',
    '',
    `A panel of ${b.minds} minds × ${b.questions} typed questions (${total.toLocaleString('en')} answers; ten each of single, multiple, likert, number and open, interleaved, a few on subjects nobody talks about), offline engine (\`${MODEL}\`), timed at the client from POST /panels until a GET (every ${POLL_MS} ms; each GET computes the results) sees it completed; "server" is the panel's own createdAt → finishedAt. Each mind is its own generated interview of ~${b.words.toLocaleString('en')} words (\`longInterview\` with a seed per mind, Teams VTT), built before the panels (setup, timed apart below). Each unit (one mind, every question) first builds its mind's memory (memories and passage vectors read, the BM25 index${b.minds > 32 ? `: ${b.minds} minds are more than the 32 sets a process keeps, so a panel after another builds them (nearly) all again` : ''}). Two panels in a row on each setup: the 1st is the first the processes answer (the worker's code not yet optimised by V8, and a fresh worker process loads wink-nlp and the sentence encoder in its first unit: the API process loads them at start, a worker-only process on first use); the 2nd asks the same minds the same questions on the same processes. Services as \`npm start\` runs them (LOG_LEVEL=warn, WORKER_POLL_MS=250, WORKER_CONCURRENCY=1 per process); on PostgreSQL the workers are started, idle, before their first panel. Peak RSS sampled every ${RSS_MS} ms during the panel; CPU is the process's user + system time during the panel (every thread). Every answer is read back afterwards and checked: each (mind, question) exactly once, every unit done, the results counting exactly the answers.`,
    '',
    `Baseline, same run, same minds: the engine alone in the benchmark process, one mind after another as one worker would (memories read from the SQLite database, indexed, every question answered; nothing queued, sent or stored), twice: ${b.engine.map(baseline).join('; ')}.`,
    '',
    '| setup | panel | seconds (client) | server | answers/s | vs the engine alone | per process: peak RSS (before the panel), CPU during the panel | checks |',
    '|---|---|---:|---:|---:|---:|---|---|',
    ...b.runs.map((r) => {
      const e = b.engine[r.round - 1];
      return (
        `| ${r.setup} | ${ROUND[r.round]} | ${f1(r.seconds)} | ${f1(r.serverSeconds)} | ${Math.round(r.answers / r.seconds)} | ${e ? `${((engineTotal(e) / r.seconds) * 100).toFixed(0)}%` : '–'} | ` +
        `${r.rss.map((p) => `${p.name} ${Math.round(p.peakMb)} MiB (${Math.round(p.beforeMb)}), ${f1(p.cpuSeconds)} s`).join('; ')} | ` +
        `${r.problems.length ? r.problems.slice(0, 3).join('; ') : `${r.answers} answers, each once`} |`
      );
    }),
    '',
    '"vs the engine alone": the baseline\'s pass of the same rank (first or second) over the panel\'s seconds; 100% would be the engine\'s work on one core with nothing around it.',
    '',
    `Memory stays bounded: during a 2nd panel, on processes whose cache of memories is full, no process grew by more than ${Math.round(growth)} MiB; the growth during a 1st panel is that cache filling (and, in a worker process, wink-nlp and the sentence encoder loading).`,
    '',
    'Where the time goes, from the stored times: a unit runs from its job\'s claim until its answers are ready (reading the unit and the panel, building the memory, answering; the time is taken when the storing transaction starts); what lies between a worker\'s units is storing the answers and settling the panel, marking the job done, and claiming the next (and, before the first, a worker process\'s wait for its next poll).',
    '',
    '| setup | panel | units per worker | first unit (the longest of the processes) | median unit | Σ in units | Σ between units |',
    '|---|---|---|---:|---:|---:|---:|',
    ...b.runs.map(
      (r) =>
        `| ${r.setup} | ${ROUND[r.round]} | ${r.units.perWorker.join(' + ')} | ${Math.round(r.units.firstUnitMs)} ms | ${Math.round(r.units.medianUnitMs)} ms | ${f1(r.units.inUnitsSeconds)} s | ${f1(r.units.betweenSeconds)} s |`,
    ),
    '',
    'Setup (not counted in the panels\' time):',
    '',
    '| setup | phase | seconds |',
    '|---|---|---:|',
    ...b.setups.flatMap((x) => x.phases.map((p) => `| ${x.setup} | ${p.phase} | ${f1(p.seconds)} |`)),
    '',
    `Targets: ≤ ${TARGET_SECONDS} s on the single process, ${singleVerdict}. Faster with two workers on PostgreSQL: ${pgVerdict}.`,
    '',
  ];
}

/** Puts the section into BENCHMARKS.md in place of the one there (or at the end). */
export function writePanelsSection(lines: readonly string[]): void {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf('\n## Panels\n');
  const section = lines.join('\n');
  if (start < 0) {
    fs.writeFileSync(file, `${text.replace(/\n*$/, '\n\n')}${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + 1);
  fs.writeFileSync(file, `${text.slice(0, start + 1)}${section}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = renderPanels(await panelBench());
  writePanelsSection(lines);
  process.stdout.write(`${lines.join('\n')}\n`);
}
