import type { Kysely } from 'kysely';

/**
 * Persona profiles and expert reflections per snapshot, and the snapshot's fidelity self-check.
 * JSON documents are stored as text (portable between SQLite and PostgreSQL).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('snapshot_profiles')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey().references('snapshots.id').onDelete('cascade'))
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_profiles_mind').on('snapshot_profiles').column('mind_id').execute();

  await db.schema
    .createTable('snapshot_reflections')
    .addColumn('snapshot_id', 'text', (c) => c.notNull().references('snapshots.id').onDelete('cascade'))
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('expert', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshot_reflections_pk', ['snapshot_id', 'expert'])
    .execute();

  await db.schema.alterTable('snapshots').addColumn('fidelity', 'text').execute();
  await db.schema.alterTable('snapshots').addColumn('reflections_error', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('snapshots').dropColumn('reflections_error').execute();
  await db.schema.alterTable('snapshots').dropColumn('fidelity').execute();
  await db.schema.dropTable('snapshot_reflections').execute();
  await db.schema.dropTable('snapshot_profiles').execute();
}
