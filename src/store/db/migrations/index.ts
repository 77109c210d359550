import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001_initial.ts';
import * as m002 from './002_profiles.ts';
import * as m003 from './003_sessions.ts';
import * as m004 from './004_usage_rate_limits.ts';
import * as m005 from './005_job_groups.ts';
import * as m006 from './006_mind_tags.ts';
import * as m007 from './007_snapshot_management.ts';
import * as m008 from './008_simulations.ts';
import * as m009 from './009_usage_keys.ts';
import * as m010 from './010_panels.ts';
import * as m011 from './011_snapshot_passages.ts';
import * as m012 from './012_privacy.ts';
import * as m013redaction from './013_redaction.ts';
import * as m013retention from './013_retention.ts';
import * as m014 from './014_email_keys.ts';
import * as m015 from './015_corrections.ts';
import * as m016 from './016_review_links.ts';

/** Migrations are versioned in the repo and applied in name order at start. */
export const migrations: Record<string, Migration> = {
  '001_initial': m001,
  '002_profiles': m002,
  '003_sessions': m003,
  '004_usage_rate_limits': m004,
  '005_job_groups': m005,
  '006_mind_tags': m006,
  '007_snapshot_management': m007,
  '008_simulations': m008,
  '009_usage_keys': m009,
  '010_panels': m010,
  '011_snapshot_passages': m011,
  '012_privacy': m012,
  '013_redaction': m013redaction,
  '013_retention': m013retention,
  '014_email_keys': m014,
  '015_corrections': m015,
  '016_review_links': m016,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
