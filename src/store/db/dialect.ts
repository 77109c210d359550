import type { Kysely } from 'kysely';
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
