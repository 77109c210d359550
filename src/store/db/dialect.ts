import type { Kysely, LogEvent } from 'kysely';
import { PostgresAdapter } from './kysely.ts';

export type DialectName = 'sqlite' | 'postgres';

/** Which SQL dialect a Kysely instance speaks: for the few places (migrations, locking) where they differ. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A write refused by a unique index (SQLite: SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY; PostgreSQL: 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Kysely's log option calling `onQuery` with the SQL of each statement run (begin and commit included), or no option. */
export function queryLog(onQuery?: (sql: string) => void): { log?: (event: LogEvent) => void } {
  return onQuery ? { log: (event) => void (event.level === 'query' && onQuery(event.query.sql)) } : {};
}
