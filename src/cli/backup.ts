/**
 * Backup and restore of the embedded defaults (`admin backup` / `admin restore`): one gzipped tar
 * holding a consistent copy of the SQLite database (SQLite's online backup API) and the blobs
 * its artifacts name. Documented in docs/OPERATIONS.md ("Backup and restore").
 */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from '../store/db/kysely.ts';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { makeRepos } from '../store/db/repos/index.ts';
import type { Database } from '../store/db/schema.ts';

const DB_FILE = 'mindsim.sqlite';
const BLOBS = 'blobs';
const MANIFEST = 'manifest.json';
const FORMAT = 'mindsim-backup/1';

export class BackupError extends Error {}

interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  minds: number;
  snapshots: number;
  blobs: number;
  /** Minds deleted while the backup ran: left out of it, rows and files. */
  erasedDuringBackup: string[];
}

function embeddedOnly(config: Config, what: string): void {
  if (config.store.databaseUrl || config.store.s3) {
    throw new BackupError(
      `${what} covers the embedded defaults (SQLite and DATA_DIR/blobs). With DATABASE_URL or BLOB_STORE=s3, ` +
        'back up PostgreSQL with pg_dump and the bucket with versioning or `aws s3 sync` (docs/OPERATIONS.md, "Backup and restore").',
    );
  }
}

const openCopy = (file: string) => new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(file) }) });

async function count(db: Kysely<Database>, table: 'minds' | 'snapshots'): Promise<number> {
  const r = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Whether the live database still has this row (a file missing from a deleted mind or snapshot is expected). */
function exists(dbPath: string, table: 'minds' | 'artifacts', id: string): boolean {
  const live = new SqliteDatabase(dbPath, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    return live.prepare(`select 1 from ${table} where id = ?`).get(id) !== undefined;
  } finally {
    live.close();
  }
}

/** Links (or, across file systems, copies) a blob into the staging folder: a later delete cannot take it away. */
async function pin(from: string, to: string): Promise<boolean> {
  await fsp.mkdir(path.dirname(to), { recursive: true });
  try {
    await fsp.link(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV' && code !== 'EPERM') throw err;
  }
  return fsp.copyFile(from, to).then(
    () => true,
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return false;
      throw err;
    },
  );
}

/**
 * 1. The database first, in one step of the online backup API (one read transaction: a copy of
 *    one instant, never restarted by the service's writes). A blob is written before its artifact
 *    is marked uploaded, so every blob the copy names already exists.
 * 2. The blobs the copy names are hard-linked into a staging folder; one deleted in between (its
 *    mind, or the snapshot made from it, was deleted meanwhile) means that mind (or that artifact
 *    with its snapshots) is erased from the copy too. A blob missing while its artifact still
 *    exists is damage: the backup stops with an error rather than hide it.
 * 3. Uploads in progress become retryable and running jobs go back to the queue (no process holds
 *    them after a restore); then manifest, database and blobs go into one archive, renamed into place.
 */
export async function backup(config: Config, out: string): Promise<Manifest & { out: string; bytes: number }> {
  embeddedOnly(config, 'backup');
  const dbPath = path.join(config.dataDir, DB_FILE);
  if (!fs.existsSync(dbPath)) throw new BackupError(`No database at ${dbPath}: is DATA_DIR right?`);
  const target = path.resolve(out);
  if (!fs.existsSync(path.dirname(target))) throw new BackupError(`The folder of ${target} does not exist.`);
  const staging = await fsp.mkdtemp(path.join(config.dataDir, '.backup-'));
  try {
    const live = new SqliteDatabase(dbPath, { fileMustExist: true });
    live.pragma('busy_timeout = 5000');
    try {
      await live.backup(path.join(staging, DB_FILE), { progress: () => 0x7fffffff });
    } finally {
      live.close();
    }
    const db = openCopy(path.join(staging, DB_FILE));
    let manifest: Manifest;
    try {
      await sql`pragma secure_delete = on`.execute(db);
      const artifacts = await db.selectFrom('artifacts').select(['id', 'mind_id', 'account_id', 'blob_key']).where('state', '=', 'uploaded').execute();
      const erased = new Map<string, string>();
      const gone = new Set<string>();
      for (const a of artifacts) {
        if (await pin(path.join(config.dataDir, BLOBS, a.blob_key), path.join(staging, BLOBS, a.blob_key))) continue;
        if (!exists(dbPath, 'minds', a.mind_id)) erased.set(a.mind_id, a.account_id);
        else if (!exists(dbPath, 'artifacts', a.id)) gone.add(a.id); // its snapshot was deleted meanwhile, with the file
        else throw new BackupError(`${path.join(config.dataDir, BLOBS, a.blob_key)} is missing, yet its mind ${a.mind_id} exists: DATA_DIR is damaged.`);
      }
      for (const a of artifacts.filter((x) => gone.has(x.id) && !erased.has(x.mind_id))) {
        const snapshots = await db.selectFrom('snapshots').select('id').where('artifact_id', '=', a.id).execute();
        for (const snap of snapshots) await makeRepos(db).snapshots.delete(a.account_id, a.mind_id, snap.id);
        await db.deleteFrom('artifacts').where('id', '=', a.id).execute();
      }
      for (const [mindId, accountId] of erased) {
        await makeRepos(db).minds.delete(accountId, mindId);
        for (const a of artifacts) if (a.mind_id === mindId) await fsp.rm(path.join(staging, BLOBS, a.blob_key), { force: true });
      }
      await db.updateTable('artifacts').set({ state: 'awaiting_upload' }).where('state', '=', 'uploading').execute();
      await sql`update jobs set state = 'queued', lease_until = null, locked_by = null, attempts = attempts - 1 where state = 'running'`.execute(db);
      await sql`pragma journal_mode = delete`.execute(db); // one self-contained file, no WAL beside it
      manifest = {
        format: FORMAT,
        createdAt: new Date().toISOString(),
        minds: await count(db, 'minds'),
        snapshots: await count(db, 'snapshots'),
        blobs: artifacts.filter((a) => !erased.has(a.mind_id) && !gone.has(a.id)).length,
        erasedDuringBackup: [...erased.keys()],
      };
    } finally {
      await db.destroy();
    }
    await fsp.mkdir(path.join(staging, BLOBS), { recursive: true });
    await fsp.writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${target}.partial`;
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, [MANIFEST, DB_FILE, BLOBS]);
    await fsp.rename(partial, target);
    return { ...manifest, out: target, bytes: (await fsp.stat(target)).size };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

const ENTRY = /^(manifest\.json|mindsim\.sqlite|blobs(\/[A-Za-z0-9][A-Za-z0-9._-]*)*\/?)$/;

/**
 * Unpacks into a staging folder inside DATA_DIR (only the archive's three kinds of entries),
 * checks the manifest, the database's integrity and that every uploaded artifact has its blob,
 * then moves the database and the blobs into place. DATA_DIR must be empty or absent.
 */
export async function restore(config: Config, from: string): Promise<Manifest & { dataDir: string }> {
  embeddedOnly(config, 'restore');
  const archive = path.resolve(from);
  if (!fs.existsSync(archive)) throw new BackupError(`No backup at ${archive}.`);
  const dir = config.dataDir;
  const existing = fs.existsSync(dir) ? await fsp.readdir(dir) : [];
  if (existing.length > 0) {
    throw new BackupError(`${dir} is not empty (${existing.slice(0, 3).join(', ')}…): restore only into an empty or new DATA_DIR, so nothing is overwritten.`);
  }
  await fsp.mkdir(dir, { recursive: true });
  const staging = await fsp.mkdtemp(path.join(dir, '.restore-'));
  try {
    const refused: string[] = [];
    await tar.x({
      file: archive,
      cwd: staging,
      strict: true,
      filter: (p, entry) => {
        const ok = ENTRY.test(p.replace(/^\.\//, '')) && ('type' in entry ? ['File', 'Directory'].includes(entry.type) : true);
        if (!ok) refused.push(p);
        return ok;
      },
    });
    if (refused.length > 0) throw new BackupError(`Not a mindsim backup: unexpected entries (${refused.slice(0, 3).join(', ')}).`);
    const manifest = JSON.parse(await fsp.readFile(path.join(staging, MANIFEST), 'utf8').catch(() => '{}')) as Manifest;
    if (manifest.format !== FORMAT) throw new BackupError(`Not a mindsim backup (${MANIFEST} missing or of another format).`);
    const sqlite = new SqliteDatabase(path.join(staging, DB_FILE), { fileMustExist: true });
    try {
      const check = sqlite.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`The backup's database is damaged: ${String(check)}`);
      const keys = sqlite.prepare(`select blob_key from artifacts where state = 'uploaded'`).pluck().all() as string[];
      const absent = keys.filter((k) => !fs.existsSync(path.join(staging, BLOBS, k)));
      if (absent.length > 0) throw new BackupError(`The backup lacks ${absent.length} uploaded file(s), e.g. ${absent[0]}.`);
    } finally {
      sqlite.close();
    }
    await fsp.mkdir(path.join(staging, BLOBS), { recursive: true });
    await fsp.rename(path.join(staging, BLOBS), path.join(dir, BLOBS));
    await fsp.rename(path.join(staging, DB_FILE), path.join(dir, DB_FILE));
    return { ...manifest, dataDir: dir };
  } catch (err) {
    await fsp.rm(path.join(dir, BLOBS), { recursive: true, force: true });
    throw err;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
