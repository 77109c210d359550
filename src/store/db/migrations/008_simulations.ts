import type { Kysely } from 'kysely';

/**
 * Simulations (conversations with a mind) and their messages (domain/conversation.ts). A message's
 * content is JSON ({text, analysis?, confidence?, evidence?}); `seq` numbers the messages of a
 * simulation, taken from its `message_count` in the transaction that adds them. Both tables name
 * the account and the mind, so listing is one indexed read and erasing a mind one delete each.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('simulations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('digital_twin_id', 'text')
    .addColumn('mind_assessment_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('message_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('simulations_account_created').on('simulations').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('simulations_mind_created').on('simulations').columns(['mind_id', 'created_at']).execute();

  await db.schema
    .createTable('simulation_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('simulation_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('simulation_messages_seq').on('simulation_messages').columns(['simulation_id', 'seq']).unique().execute();
  await db.schema.createIndex('simulation_messages_mind').on('simulation_messages').column('mind_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('simulation_messages').execute();
  await db.schema.dropTable('simulations').execute();
}
