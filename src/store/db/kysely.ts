/**
 * Kysely's runtime values, from its CommonJS build; every runtime import of kysely goes through
 * here (eslint.config.js enforces it), so a process holds one copy and `instanceof` holds. Types
 * still come from 'kysely' itself (`import type`).
 *
 * Why: its ES module build is 279 files. Importing it cost ~0.65 s of CPU in every process (the
 * service, each test file, each operator CLI call) against ~0.13 s for the CommonJS build, when
 * processes ran through the tsx loader; the CommonJS build is still the cheaper of the two.
 */
import { createRequire } from 'node:module';
import type { Kysely as KyselyOf } from 'kysely';

const kysely = createRequire(import.meta.url)('kysely') as typeof import('kysely');

export const { Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } = kysely;
export const Kysely = kysely.Kysely;
export type Kysely<DB> = KyselyOf<DB>;
