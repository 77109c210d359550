import { queryLog } from './dialect.ts';
import { Kysely, PostgresDialect } from './kysely.ts';
import pg from 'pg';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';

/** A fixed key for pg_advisory_lock: only one process at a time applies migrations. */
const MIGRATION_LOCK = 7_345_201_998;

/** Type parsers of this pool only: int8 (counts, sizes) as numbers, as SQLite returns them. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /** Connections of this process's pool. */
  poolSize?: number;
  /** Hears every statement's SQL. */
  onQuery?: ((sql: string) => void) | undefined;
}

/**
 * Opens PostgreSQL through a pg Pool and applies the migrations. Several processes may start at
 * once: the migrations run under a session advisory lock, on a connection of their own.
 */
export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types });
  pool.on('error', () => {
    /* an idle client lost its connection: the pool replaces it on next use */
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...queryLog(opts.onQuery) });
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  } finally {
    await lock.end(); // ending the session releases the lock
  }
  return db;
}
