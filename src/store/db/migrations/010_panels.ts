import type { Kysely } from 'kysely';

/**
 * Panels (domain/panel.ts): a questionnaire put to many minds. A panel is split into units, one
 * per mind, each a job a worker takes; a unit's answers are stored with the unit's move to `done`
 * in one transaction, so a unit redelivered after a crash never adds its answers twice (the
 * primary key of panel_answers would refuse them anyway). Questions, the selection and a unit's
 * tags and snapshots are JSON; a choice list is JSON too (a multiple-choice answer has several).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('panels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('selection', 'text', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('skipped', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('panels_account_created').on('panels').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('panel_units')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('panel_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('mind_name', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('snapshot_ids', 'text')
    .addColumn('error_message', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('panel_units_panel_seq').on('panel_units').columns(['panel_id', 'seq']).unique().execute();
  await db.schema.createIndex('panel_units_mind').on('panel_units').column('mind_id').execute();

  await db.schema
    .createTable('panel_answers')
    .addColumn('panel_id', 'text', (c) => c.notNull())
    .addColumn('unit_seq', 'integer', (c) => c.notNull())
    .addColumn('question_index', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('choices', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('saying', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('panel_answers_pk', ['panel_id', 'unit_seq', 'question_index'])
    .execute();
  await db.schema.createIndex('panel_answers_question').on('panel_answers').columns(['panel_id', 'question_index', 'unit_seq']).execute();
  await db.schema.createIndex('panel_answers_mind').on('panel_answers').column('mind_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('panel_answers').execute();
  await db.schema.dropTable('panel_units').execute();
  await db.schema.dropTable('panels').execute();
}
