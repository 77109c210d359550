import type { Kysely } from 'kysely';

/**
 * Issue 25, redaction: a mind's third parties are numbered (`[person 2]`) the same in every
 * snapshot and call. The number is kept under a keyed hash of the name (HMAC-SHA-256 under the
 * service's redaction key), never the name: one row per (mind, hash), a number used once per mind.
 * Erased with the mind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('redaction_people')
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('redaction_people_pk', ['mind_id', 'hash'])
    .addUniqueConstraint('redaction_people_number', ['mind_id', 'number'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('redaction_people').execute();
}
