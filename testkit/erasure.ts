/**
 * What an erasure leaves behind (test/erasure.test.ts's checks, shared): every `table.column` of the
 * database holding one of some strings (ids, a planted word), on SQLite (the data folder's file)
 * and on PostgreSQL (every table of the public schema), the blob files under the data folder, and
 * the files of the data folder holding a word byte for byte.
 */
import SqliteDatabase from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** `table.column` of every value of the SQLite database in `dataDir` that contains one of these strings, the tables `except` aside. */
export function sqliteRowsNaming(dataDir: string, needles: readonly string[], except: ReadonlySet<string> = new Set()): string[] {
  const db = new SqliteDatabase(path.join(dataDir, 'mindsim.sqlite'), { readonly: true });
  try {
    const tables = (db.prepare(`select name from sqlite_master where type = 'table'`).pluck().all() as string[]).filter((t) => !except.has(t));
    const found = new Set<string>();
    for (const t of tables) {
      for (const row of db.prepare(`select * from "${t}"`).all() as Array<Record<string, unknown>>) {
        for (const [col, v] of Object.entries(row)) {
          if ((typeof v === 'string' || Buffer.isBuffer(v)) && needles.some((n) => v.includes(n))) found.add(`${t}.${col}`);
        }
      }
    }
    return [...found].sort();
  } finally {
    db.close();
  }
}

/** The same on a PostgreSQL database: every column of every table, read as text. */
export async function pgRowsNaming(url: string, needles: readonly string[]): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const tables = (await c.query<{ table_name: string }>(`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).rows.map((r) => r.table_name);
    const found = new Set<string>();
    for (const t of tables) {
      const { rows } = await c.query<Record<string, unknown>>(`select * from "${t}"`);
      for (const row of rows) {
        for (const [col, v] of Object.entries(row)) {
          const text = typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('latin1') : v !== null && typeof v === 'object' ? JSON.stringify(v) : null;
          if (text !== null && needles.some((n) => text.includes(n))) found.add(`${t}.${col}`);
        }
      }
    }
    return [...found].sort();
  } finally {
    await c.end();
  }
}

/** The blob files under the data folder, relative to it (none when no blob was ever written there). */
export function blobPaths(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(path.relative(dataDir, e.parentPath), e.name));
}

/**
 * How many times `needle` occurs, byte for byte, in each file under the data folder (the database,
 * its `-wal` and `-shm`, the journal of answered turns, the blobs…), files without it left out.
 */
export function filesHolding(dataDir: string, needle: string): Record<string, number> {
  const bytes = Buffer.from(needle);
  const found: Record<string, number> = {};
  for (const e of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    let content: Buffer;
    try {
      content = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed while the folder was read (a journal segment stored meanwhile)
      throw err;
    }
    let n = 0;
    for (let at = content.indexOf(bytes); at >= 0; at = content.indexOf(bytes, at + bytes.length)) n++;
    if (n > 0) found[path.relative(dataDir, file)] = n;
  }
  return found;
}
