import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_initial.ts';
import * as m002 from './002_profiles.ts';
import * as m003 from './003_sessions.ts';
import * as m004 from './004_usage_rate_limits.ts';
import * as m005 from './005_job_groups.ts';
import * as m007 from './007_snapshot_management.ts';

/** Migrations are versioned in the repo and applied in name order at start. */
export const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_profiles': m002,
  '003_sessions': m003,
  '004_usage_rate_limits': m004,
  '005_job_groups': m005,
  '007_snapshot_management': m007,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
