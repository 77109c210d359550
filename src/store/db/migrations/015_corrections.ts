import type { Kysely } from 'kysely';

/**
 * Issue 32, corrections: what the person would really say to a scenario, written by the account
 * (or the person) once, which the mind answers from afterwards (domain/corrections.ts). One row per
 * correction: its mind and account, the scenario and the answer (redacted before they are written
 * when the mind's redaction is `stored`), the simulation it corrects when it came from one, a note,
 * when and by whom (`key:<id>`, `user:<id>`). Erased with the mind, by withdrawal and by retention.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('corrections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('scenario', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('simulation_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('corrections_mind_created').on('corrections').columns(['mind_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('corrections_account_created').on('corrections').columns(['account_id', 'created_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('corrections').execute();
}
