import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';

/**
 * Snapshot management (issue 14): when the conversation happened (`mindset_date`) and when the
 * snapshot last changed (`updated_at`); the default digital twin marked (`is_default`) and every
 * snapshot created without a twin linked to it; the parsed transcript turns and the psychometrics
 * of each snapshot, stored when it is processed and deleted with it (or with its mind).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables();
  const has = (table: string, column: string) => tables.some((t) => t.name === table && t.columns.some((c) => c.name === column));

  await db.schema.alterTable('snapshots').addColumn('mindset_date', 'text').execute();
  await db.schema.alterTable('snapshots').addColumn('updated_at', 'text').execute();
  await sql`update snapshots set mindset_date = substr(created_at, 1, 10), updated_at = coalesce(completed_at, started_at, created_at)`.execute(db);

  // Until now every mind had exactly one twin, made with it: its earliest twin is its default.
  if (!has('digital_twins', 'is_default')) {
    await db.schema.alterTable('digital_twins').addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update digital_twins set is_default = 1 where created_at = (select min(d.created_at) from digital_twins d where d.mind_id = digital_twins.mind_id)`.execute(db);
  }
  await sql`update snapshots set digital_twin_id = (select d.id from digital_twins d where d.mind_id = snapshots.mind_id order by d.created_at, d.id limit 1) where digital_twin_id is null`.execute(db);
  await db.schema.createIndex('snapshots_mind_twin').on('snapshots').columns(['mind_id', 'digital_twin_id', 'status']).execute();

  await db.schema
    .createTable('snapshot_transcripts')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey().references('snapshots.id').onDelete('cascade'))
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('turns', 'text', (c) => c.notNull())
    .addColumn('truncated', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_transcripts_mind').on('snapshot_transcripts').column('mind_id').execute();

  await db.schema
    .createTable('snapshot_psychometrics')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey().references('snapshots.id').onDelete('cascade'))
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('markers', 'text', (c) => c.notNull())
    .addColumn('estimates', 'text')
    .addColumn('estimates_model', 'text')
    .addColumn('estimates_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_psychometrics_mind').on('snapshot_psychometrics').column('mind_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('snapshot_psychometrics').execute();
  await db.schema.dropTable('snapshot_transcripts').execute();
  await db.schema.dropIndex('snapshots_mind_twin').execute();
  await db.schema.alterTable('digital_twins').dropColumn('is_default').execute();
  await db.schema.alterTable('snapshots').dropColumn('updated_at').execute();
  await db.schema.alterTable('snapshots').dropColumn('mindset_date').execute();
}
