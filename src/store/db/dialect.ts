import type { Kysely } from 'kysely';
import { PostgresAdapter } from './kysely.ts';

export type DialectName = 'sqlite' | 'postgres';

/** Which SQL dialect a Kysely instance speaks: for the few places (migrations, locking) where they differ. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
