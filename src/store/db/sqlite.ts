import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as SqliteDialectDatabase } from 'kysely';
import { queryLog } from './dialect.ts';
import { Kysely, SqliteDialect } from './kysely.ts';
import { LRUCache } from 'lru-cache';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';

/** Opens (creating if needed) the embedded SQLite database in WAL mode and applies migrations; `onQuery` hears every statement's SQL. */
export async function openSqlite(dataDir: string, onQuery?: (sql: string) => void): Promise<Kysely<Database>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SqliteDatabase(path.join(dataDir, 'mindsim.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Deleted rows are overwritten with zeros, not left in free pages: a deleted mind's words do not
  // linger in the file (the WAL keeps the pages as they were until a checkpoint: every erasure ends
  // with a TRUNCATE checkpoint, Store.scrub).
  sqlite.pragma('secure_delete = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), ...queryLog(onQuery) });
  await migrate(db);
  return db;
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running a small
 * query, so reuse prepared statements by SQL text. Safe because Kysely runs one query at a time
 * on the connection.
 *
 * Its transactions start with a plain `begin` (deferred): the write lock is taken at the first
 * write. When another process (an API process and `npm run worker`, or `admin erase-mind` beside
 * the service) commits between that transaction's first read and its first write, SQLite cannot
 * upgrade the stale read and answers SQLITE_BUSY at once, without waiting out busy_timeout. So
 * every transaction here is `begin immediate`: it waits for the write lock up front, then runs.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectDatabase {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: 500 });
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      const sql = text === 'begin' ? 'begin immediate' : text;
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export { migrate };
