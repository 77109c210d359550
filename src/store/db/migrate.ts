import type { Kysely } from 'kysely';
import { Migrator } from './kysely.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';

/** Applies every migration not yet applied, in name order (the same on SQLite and PostgreSQL). */
export async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
