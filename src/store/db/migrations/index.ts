import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_initial.ts';

/** Migrations are versioned in the repo and applied in name order at start. */
export const migrations: Record<string, Migration> = {
  '001_initial': m001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
