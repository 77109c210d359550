/**
 * `npm run bench:minds`: many minds on one node with the sentence encoder on (issue 24, item 3).
 *
 * BENCH_MINDS minds (default 1,000), one real person each from ../shared/data/corpus (its
 * SOURCES.md: 1,732 Changelog episodes, CC BY-SA 4.0; read in place): an episode's person is its
 * guest, the speaker of at least 500 words (train/corpus.ts's MIN_PERSON_WORDS) who speaks in the
 * fewest episodes of the corpus (hosts speak in hundreds), the one with the most words on a tie;
 * episodes in a fixed shuffled order, round-robin past the end.
 *
 * 1. The first BENCH_PROCESS minds (default 20) are processed through the API as a client would:
 *    the mind created, the episode sent as a Teams VTT with the guest as `speaker`, the snapshot
 *    processed by the service's worker (parsing, memory bank, the passages embedded by the
 *    sentence encoder), all sent at once: snapshots per minute from the service's own times.
 * 2. The rest are copies: with the service stopped, a processed mind's rows (mind, twin, artifact
 *    and its blob, snapshot, memories, passages, profile, transcript, psychometric markers) are
 *    copied under new ids, cycling through the processed minds. Processing 10,000 episodes through
 *    the encoder would take hours (3–7 s each); a copy is what the service would have stored.
 * 3. The service started again over those minds: BENCH_SIMULATES (default 3,000) simulates, each
 *    on a mind drawn at random (seeded), one client, one request at a time: p50 and p99, apart for
 *    a mind's first simulate in the process (its memory read and indexed) and for one asked
 *    before (held by the cache unless MEMORY_CACHE_MB dropped it); the service's RSS.
 * 4. The database's size and the blobs' size per mind; a restart, and the first simulate after it.
 *
 * Runs the service as the tests do (testkit/process.ts), on SQLite and files by default;
 * BENCH_DATABASE_URL (a PostgreSQL role allowed to create databases, as TEST_DATABASE_URL) runs it
 * on a throwaway database; BENCH_S3=s3rver on an s3rver bucket started here, or BLOB_STORE=s3 with
 * the S3_* settings on that bucket (MinIO, AWS). MEMORY_CACHE_MB is passed to the service.
 * Prints its section; `npm run bench:minds -- --write` also puts it into BENCHMARKS.md, in place of
 * the section of the same setup.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { parseTurns } from '../eval/interviews.ts';
import { writeSection } from '../eval/panels/report.ts';
import { loadConfig } from '../src/config.ts';
import { systemRuntime } from '../src/kernel/runtime.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import type { BlobStore } from '../src/store/blobs/blob-store.ts';
import { S3BlobStore } from '../src/store/blobs/s3.ts';
import { sql, type Kysely } from '../src/store/db/kysely.ts';
import type { Database } from '../src/store/db/schema.ts';
import { openStorage } from '../src/store/open.ts';
import { CORPUS_DIR, MIN_PERSON_WORDS, corpusFiles } from '../train/corpus.ts';
import { teamsVtt, type Turn } from '../testkit/fixtures.ts';
import { client, fileForm, type Client } from '../testkit/http.ts';
import { startServer, type TestServer } from '../testkit/process.ts';
import { createDatabase, startS3, type TestDatabase, type TestS3 } from '../testkit/scale.ts';
import { rssBytes } from './measure.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The heading of the sections, one per setup: `## Many minds on one node: SQLite + files`, `…: PostgreSQL + s3rver`. */
const SECTION = '## Many minds on one node';
const MINDS = Number(process.env.BENCH_MINDS ?? 1000);
const PROCESS = Math.min(MINDS, Number(process.env.BENCH_PROCESS ?? 20));
const SIMULATES = Number(process.env.BENCH_SIMULATES ?? 3000);
const SEED = Number(process.env.BENCH_SEED ?? 24);
const WRITE = process.argv.includes('--write');
/** As `npm start` runs (bench/panels.ts's services); a long analysis limit, as bench/mind-sizes.ts. */
const SERVICE_ENV: Record<string, string> = { LOG_LEVEL: 'warn', WORKER_POLL_MS: '250', ANALYSIS_TIMEOUT_MS: '600000' };
const MODEL = 'mind-reasoner-standard';
/** What people ask such minds: short questions and longer, context-first ones. */
const SCENARIOS = [
  'Would you hire someone without a degree?',
  'How do you feel about remote work?',
  'What would you do if your biggest customer asked for a feature you think is wrong?',
  'Should a small team write its own framework?',
  'How do you decide which open source project to contribute to?',
  'Your manager asks you to ship on Friday although the tests are flaky. What do you do?',
  'How do you keep learning new technology?',
  'Tell me about a mistake that taught you something.',
  "We're a 12-person startup and our cloud bill doubled this year. The team wants to rewrite the backend in another language. Would you?",
  'A friend is starting a company and asks you to join as the first engineer, for half your salary. Would you leave your job?',
  'What do you think about AI writing most of the code?',
  'How do you handle burnout on your team?',
];

const mb = (b: number) => b / 1024 / 1024;
const since = (t0: number) => (performance.now() - t0) / 1000;
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Episode {
  file: string;
  guest: string;
  /** The guest's words in the episode. */
  words: number;
}

/** Each episode's guest (see the module comment), in a shuffled order fixed by the seed. */
function episodes(): Episode[] {
  const files = corpusFiles();
  const perFile = files.map((file) => {
    const words = new Map<string, number>();
    for (const t of parseTurns(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'))) words.set(t.speaker, (words.get(t.speaker) ?? 0) + wordCount(t.text));
    return { file, people: [...words].filter(([, n]) => n >= MIN_PERSON_WORDS) };
  });
  const episodesOf = new Map<string, number>();
  for (const { people } of perFile) for (const [person] of people) episodesOf.set(person, (episodesOf.get(person) ?? 0) + 1);
  const out = perFile.flatMap(({ file, people }) => {
    const [guest] = [...people].sort((a, b) => (episodesOf.get(a[0]) ?? 0) - (episodesOf.get(b[0]) ?? 0) || b[1] - a[1]);
    return guest ? [{ file, guest: guest[0], words: guest[1] }] : [];
  });
  const rand = seededRandom(SEED);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as Episode, out[i] as Episode];
  }
  return out;
}

interface Processed {
  mindId: string;
  snapshotId: string;
  episode: Episode;
  createdAt: number;
  startedAt: number;
  completedAt: number;
}

/** Creates the first PROCESS minds and sends their episodes at once; waits until each snapshot is final. */
async function processThroughApi(api: Client, list: readonly Episode[]): Promise<{ done: Processed[]; failed: string[] }> {
  const sent: Array<{ mindId: string; snapshotId: string; episode: Episode }> = [];
  for (let i = 0; i < PROCESS; i++) {
    const episode = list[i % list.length] as Episode;
    const turns: Turn[] = parseTurns(fs.readFileSync(path.join(CORPUS_DIR, episode.file), 'utf8'));
    const mind = await api.post('/minds', { name: episode.guest });
    if (mind.status !== 201 && mind.status !== 200) throw new Error(`POST /minds answered ${mind.status}: ${JSON.stringify(mind.body)}`);
    const mindId = mind.body.mind.id as string;
    const form = fileForm(teamsVtt(turns), 'episode.vtt', 'text/vtt', { speaker: episode.guest });
    const r = await api.post(`/minds/${mindId}/snapshots`, form);
    if (r.status >= 300) throw new Error(`POST /snapshots answered ${r.status}: ${JSON.stringify(r.body)}`);
    sent.push({ mindId, snapshotId: r.body.mindAssessmentId as string, episode });
  }
  // One status read per pending snapshot a second: the client's polling costs the service little.
  const done: Processed[] = [];
  const failed: string[] = [];
  let pending = [...sent];
  while (pending.length) {
    await new Promise((r) => setTimeout(r, 1000));
    const still: typeof pending = [];
    for (const s of pending) {
      const { body } = await api.get(`/minds/${s.mindId}/snapshots/${s.snapshotId}/status`);
      if (body?.status === 'completed') {
        done.push({ ...s, createdAt: Date.parse(body.createdAt), startedAt: Date.parse(body.startedAt ?? body.createdAt), completedAt: Date.parse(body.completedAt) });
      } else if (body?.status === 'failed') failed.push(`${s.episode.file}: ${body.error?.code ?? 'failed'}`);
      else still.push(s);
    }
    if (still.length !== pending.length) log(`processed ${done.length + failed.length} of ${sent.length}`);
    pending = still;
  }
  return { done, failed };
}

type Row = Record<string, unknown>;
/** The tables that hold a mind, in the order their rows can be inserted; `id` is a generated key where dropped. */
const TABLES: ReadonlyArray<{ table: string; by: string; dropId?: boolean }> = [
  { table: 'minds', by: 'id' },
  { table: 'digital_twins', by: 'mind_id' },
  { table: 'artifacts', by: 'mind_id' },
  { table: 'snapshots', by: 'mind_id' },
  { table: 'memories', by: 'mind_id', dropId: true },
  { table: 'snapshot_passages', by: 'mind_id' },
  { table: 'snapshot_profiles', by: 'mind_id' },
  { table: 'snapshot_reflections', by: 'mind_id' },
  { table: 'snapshot_transcripts', by: 'mind_id' },
  { table: 'snapshot_psychometrics', by: 'mind_id' },
  { table: 'mind_tags', by: 'mind_id' },
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A processed mind's rows, read once. */
async function rowsOf(db: Kysely<Database>, mindId: string): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const { table, by } of TABLES) {
    const { rows } = await sql<Row>`select * from ${sql.table(table)} where ${sql.ref(by)} = ${mindId}`.execute(db);
    out.set(table, rows);
  }
  return out;
}

/**
 * The rows of `source` under new ids: every id of the mind, its twin, artifact and snapshot is
 * replaced wherever it appears in a text column (keys, blob keys, the profile's JSON); the slug
 * gets a suffix (unique per account).
 */
function copied(source: Map<string, Row[]>, n: number): { rows: Map<string, Row[]>; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  for (const table of ['minds', 'digital_twins', 'artifacts', 'snapshots']) for (const r of source.get(table) ?? []) ids.set(String(r.id), crypto.randomUUID());
  const swap = (v: unknown) => (typeof v === 'string' ? v.replace(UUID, (id) => ids.get(id) ?? id) : v);
  const rows = new Map<string, Row[]>();
  for (const { table, dropId } of TABLES) {
    rows.set(
      table,
      (source.get(table) ?? []).map((r) => {
        const row: Row = {};
        for (const [k, v] of Object.entries(r)) if (!(dropId && k === 'id')) row[k] = swap(v);
        if (table === 'minds' && typeof row.slug === 'string') row.slug = `${row.slug}-copy-${n}`;
        return row;
      }),
    );
  }
  return { rows, ids };
}

/** Minds PROCESS…MINDS-1 as copies of the processed ones, in turn, their blobs copied too; answers their ids. */
async function copyMinds(db: Kysely<Database>, blobs: BlobStore, processed: readonly Processed[]): Promise<string[]> {
  const sources = await Promise.all(processed.map((p) => rowsOf(db, p.mindId)));
  const blobCache = new Map<string, Buffer>();
  const made: string[] = [];
  for (let n = processed.length; n < MINDS; n++) {
    const source = sources[n % sources.length] as Map<string, Row[]>;
    const { rows, ids } = copied(source, n);
    await db.transaction().execute(async (trx) => {
      for (const { table } of TABLES) {
        const list = rows.get(table) ?? [];
        for (let i = 0; i < list.length; i += 500) await trx.insertInto(table as keyof Database).values(list.slice(i, i + 500) as never).execute();
      }
    });
    const originals = source.get('artifacts') ?? [];
    for (const [i, artifact] of (rows.get('artifacts') ?? []).entries()) {
      const from = String(originals[i]?.blob_key);
      let bytes = blobCache.get(from);
      if (!bytes) blobCache.set(from, (bytes = await blobs.get(from)));
      await blobs.putBuffer(String(artifact.blob_key), bytes);
    }
    made.push(ids.get(String(source.get('minds')?.[0]?.id)) ?? '');
    if (made.length % 500 === 0) log(`copied ${made.length} minds`);
  }
  return made;
}

/**
 * The database's bytes: the SQLite file (its WAL checkpointed first), or the service's tables in
 * PostgreSQL with their indexes and TOAST (not the catalogs every database has).
 */
async function databaseBytes(db: Kysely<Database>, srv: TestServer, postgres: boolean): Promise<number> {
  if (postgres) {
    const { rows } = await sql<{ size: string }>`
      select coalesce(sum(pg_total_relation_size(c.oid)), 0) as size
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'`.execute(db);
    return Number(rows[0]?.size ?? 0);
  }
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
  return ['mindsim.sqlite', 'mindsim.sqlite-wal'].reduce((sum, f) => {
    const p = path.join(srv.dataDir, f);
    return sum + (fs.existsSync(p) ? fs.statSync(p).size : 0);
  }, 0);
}

/** The blob store's bytes: the files under DATA_DIR/blobs, or the bucket's objects. */
async function blobBytes(blobs: BlobStore, srv: TestServer, bucket: string | null): Promise<number> {
  if (blobs instanceof S3BlobStore && bucket) {
    // ListObjects (v1) paged by the last key: s3rver 3.7's v2 continuation token is DES, which
    // OpenSSL 3 (Node 17 on) refuses, so any v2 listing past 1,000 objects answered InternalError.
    let total = 0;
    let marker: string | undefined;
    for (;;) {
      const page = await blobs.client.send(new ListObjectsCommand({ Bucket: bucket, Marker: marker }));
      const objects = page.Contents ?? [];
      for (const o of objects) total += o.Size ?? 0;
      marker = objects.at(-1)?.Key;
      if (!page.IsTruncated || marker === undefined) return total;
    }
  }
  const dir = path.join(srv.dataDir, 'blobs');
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
}

async function simulate(api: Client, mindId: string, message: string): Promise<number> {
  const t0 = performance.now();
  const r = await api.post('/simulate', { mindId, selectedSimulationModel: MODEL, scenario: { message } });
  if (r.status !== 200) throw new Error(`simulate answered ${r.status}: ${JSON.stringify(r.body)}`);
  return performance.now() - t0;
}

/** A copy answers as the mind it was copied from (the same words; only ids differ), or the numbers would mean nothing. */
async function checkCopy(api: Client, source: string, copy: string | undefined): Promise<void> {
  if (!copy) return;
  const ask = (mindId: string) => api.post('/simulate', { mindId, selectedSimulationModel: MODEL, scenario: { message: SCENARIOS[0] } });
  const [a, b] = [await ask(source), await ask(copy)];
  const words = (r: Awaited<ReturnType<typeof ask>>) => [r.body?.message, (r.body?.evidence as Array<{ text: string }> | undefined)?.map((e) => e.text)];
  if (JSON.stringify(words(a)) !== JSON.stringify(words(b))) throw new Error('a copied mind answers otherwise than the mind it was copied from');
}

/** Samples a process's RSS every 100 ms until stopped; answers the peak. */
function rssPeak(pid: number): () => number {
  let peak = rssBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssBytes(pid));
  };
}

export interface MindsBench {
  at: string;
  setup: string;
  minds: number;
  processed: number;
  failed: string[];
  cacheMb: number;
  /** Guest words per processed mind: mean and range. */
  words: { mean: number; min: number; max: number };
  memoriesPerMind: number;
  snapshotsPerMinute: number;
  processingSeconds: number;
  /** Per snapshot: started → completed, median. */
  medianSnapshotMs: number;
  copySeconds: number;
  simulates: { n: number; p50: number; p99: number; first: { n: number; p50: number; p99: number }; again: { n: number; p50: number; p99: number } };
  rss: { idleAfterStartMb: number; peakMb: number; afterMb: number };
  databasePerMind: number;
  blobsPerMind: number;
  databaseBytes: number;
  blobBytes: number;
  restartSeconds: number;
  firstAfterRestartMs: number;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

export async function mindsBench(): Promise<MindsBench> {
  const list = episodes();
  log(`${list.length} episodes with a guest; ${MINDS} minds, ${PROCESS} through the API`);
  let pgDb: TestDatabase | null = null;
  let s3: TestS3 | null = null;
  const extra: Record<string, string> = { ...SERVICE_ENV };
  if (process.env.MEMORY_CACHE_MB) extra.MEMORY_CACHE_MB = process.env.MEMORY_CACHE_MB;
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) {
    pgDb = await createDatabase(adminUrl);
    extra.DATABASE_URL = pgDb.url;
  }
  if (process.env.BENCH_S3 === 's3rver') {
    s3 = await startS3();
    Object.assign(extra, s3.env);
  } else if (process.env.BLOB_STORE === 's3') {
    for (const [k, v] of Object.entries(process.env)) if ((k === 'BLOB_STORE' || k.startsWith('S3_')) && v !== undefined) extra[k] = v;
  }
  const setup = `${pgDb ? 'PostgreSQL' : 'SQLite'} + ${s3 ? 's3rver' : extra.BLOB_STORE === 's3' ? 'S3' : 'files'}`;
  const srv = await startServer(extra);
  try {
    const config = loadConfig(srv.env);
    const api = client(srv.api, srv.apiKey);

    let t0 = performance.now();
    const { done, failed } = await processThroughApi(api, list);
    if (done.length === 0) throw new Error(`no snapshot completed: ${failed.join('; ')}`);
    log(`processed ${done.length} in ${since(t0).toFixed(0)} s`);
    const first = Math.min(...done.map((d) => d.createdAt));
    const last = Math.max(...done.map((d) => d.completedAt));
    const perSnapshot = done.map((d) => d.completedAt - d.startedAt).sort((a, b) => a - b);

    // The copies, written with the service stopped (one writer on SQLite).
    await srv.stop();
    const { store, blobs } = await openStorage(config, systemRuntime);
    let copySeconds = 0;
    let dbBytes = 0;
    let fileBytes = 0;
    let memories = 0;
    const mindIds = done.map((d) => d.mindId);
    try {
      t0 = performance.now();
      mindIds.push(...(await copyMinds(store.db, blobs, done)));
      copySeconds = since(t0);
      log(`copied ${MINDS - done.length} minds in ${copySeconds.toFixed(1)} s`);
      const counted = await sql<{ n: string | number }>`select count(*) as n from memories`.execute(store.db);
      memories = Number(counted.rows[0]?.n ?? 0);
      dbBytes = await databaseBytes(store.db, srv, Boolean(pgDb));
      fileBytes = await blobBytes(blobs, srv, config.store.s3?.bucket ?? null);
    } finally {
      await store.destroy();
      if (blobs instanceof S3BlobStore) blobs.close();
    }

    await srv.start();
    const idleAfterStart = rssBytes(srv.proc.pid ?? 0);
    const rand = seededRandom(SEED + 1);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
    const asked = new Set<string>();
    const firstMs: number[] = [];
    const againMs: number[] = [];
    const stopRss = rssPeak(srv.proc.pid ?? 0);
    t0 = performance.now();
    for (let i = 0; i < SIMULATES; i++) {
      const mindId = pick(mindIds);
      const ms = await simulate(api, mindId, pick(SCENARIOS));
      (asked.has(mindId) ? againMs : firstMs).push(ms);
      asked.add(mindId);
      if ((i + 1) % 200 === 0) log(`simulated ${i + 1} of ${SIMULATES} (${since(t0).toFixed(0)} s)`);
    }
    const peak = stopRss();
    const after = rssBytes(srv.proc.pid ?? 0);

    await srv.stop();
    t0 = performance.now();
    await srv.start();
    const restartSeconds = since(t0);
    const firstAfterRestartMs = await simulate(api, pick(mindIds), pick(SCENARIOS));
    await checkCopy(api, mindIds[0] ?? '', mindIds[done.length]);

    const words = done.map((d) => d.episode.words);
    return {
      at: new Date().toISOString(),
      setup,
      minds: MINDS,
      processed: done.length,
      failed,
      cacheMb: mb(config.memoryCacheBytes),
      words: { mean: words.reduce((a, b) => a + b, 0) / words.length, min: Math.min(...words), max: Math.max(...words) },
      memoriesPerMind: memories / MINDS,
      snapshotsPerMinute: (done.length / (last - first)) * 60_000,
      processingSeconds: (last - first) / 1000,
      medianSnapshotMs: percentile(perSnapshot, 0.5),
      copySeconds,
      simulates: { ...stats([...firstMs, ...againMs]), first: stats(firstMs), again: stats(againMs) },
      rss: { idleAfterStartMb: mb(idleAfterStart), peakMb: mb(peak), afterMb: mb(after) },
      databasePerMind: dbBytes / MINDS,
      blobsPerMind: fileBytes / MINDS,
      databaseBytes: dbBytes,
      blobBytes: fileBytes,
      restartSeconds,
      firstAfterRestartMs,
    };
  } finally {
    await srv.stop();
    fs.rmSync(srv.dataDir, { recursive: true, force: true });
    await s3?.close();
    // A failed drop (a role that may not end others' connections) must not hide what failed before it.
    await pgDb?.drop().catch((err: unknown) => console.error(`could not drop the benchmark's database: ${(err as Error).message}`));
  }
}

const f0 = (n: number) => Math.round(n).toLocaleString('en');
const f1 = (n: number) => n.toFixed(1);

export function renderMinds(b: MindsBench): string[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const s = b.simulates;
  return [
    `${SECTION}: ${b.setup}`,
    '',
    `Run: ${b.at} on ${os.cpus().length} × ${cpu}, ${f0(mb(os.totalmem()))} MiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}; ${b.setup}.`,
    `Produced by \`npm run bench:minds -- --write\` (bench/minds.ts; BENCH_MINDS=${b.minds} BENCH_PROCESS=${b.processed + b.failed.length} BENCH_SIMULATES=${s.n}, MEMORY_CACHE_MB=${f0(b.cacheMb)}).`,
    '',
    `${f0(b.minds)} minds, one real person each: the guest of an episode of ../shared/data/corpus (Changelog, CC BY-SA 4.0; ${f0(b.words.mean)} words of the person on average, ${f0(b.words.min)}–${f0(b.words.max)}; ${f1(b.memoriesPerMind)} memories a mind). ` +
      `The first ${b.processed} were processed through the API (a Teams VTT each, sent at once, the worker embedding the passages with the sentence encoder; WORKER_CONCURRENCY=${process.env.WORKER_CONCURRENCY ?? 1}: as many analysis threads)${b.failed.length ? `, ${b.failed.length} failed (${b.failed.join('; ')})` : ''}. ` +
      `**The other ${f0(b.minds - b.processed)} are copies**: their rows (mind, twin, artifact and blob, snapshot, memories, passages, profile, transcript) copied in the database under new ids from the processed ones in turn, with the service stopped (${f1(b.copySeconds)} s), because processing every episode through the encoder would take hours (3–7 s each).`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| snapshots per minute (the first ${b.processed}, the service's first created → last completed) | ${f1(b.snapshotsPerMinute)} (${f1(b.processingSeconds)} s) |`,
    `| one snapshot, started → completed (median) | ${f1(b.medianSnapshotMs / 1000)} s |`,
    `| simulate, random access: p50 / p99 (${s.n} requests, one at a time) | ${f1(s.p50)} / ${f1(s.p99)} ms |`,
    `| … a mind's first simulate in the process (read and indexed): p50 / p99 (${s.first.n}) | ${f1(s.first.p50)} / ${f1(s.first.p99)} ms |`,
    `| … a mind asked before (held unless the budget dropped it): p50 / p99 (${s.again.n}) | ${f1(s.again.p50)} / ${f1(s.again.p99)} ms |`,
    `| service RSS: started over the minds / peak during the simulates / after them | ${f0(b.rss.idleAfterStartMb)} / ${f0(b.rss.peakMb)} / ${f0(b.rss.afterMb)} MiB |`,
    `| database per mind (${f1(mb(b.databaseBytes))} MiB in all, before the simulates) | ${f1(b.databasePerMind / 1024)} KiB |`,
    `| blobs per mind (${f1(mb(b.blobBytes))} MiB in all) | ${f1(b.blobsPerMind / 1024)} KiB |`,
    `| restart: stopped → healthy | ${f1(b.restartSeconds)} s |`,
    `| first simulate after the restart | ${f0(b.firstAfterRestartMs)} ms |`,
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lines = renderMinds(await mindsBench());
  if (WRITE) writeSection(path.join(ROOT, 'BENCHMARKS.md'), lines.join('\n'), lines[0]);
  process.stdout.write(`${lines.join('\n')}\n`);
}
