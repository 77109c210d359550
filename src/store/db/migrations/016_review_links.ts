import type { Kysely } from 'kysely';

/**
 * Issue 32, item 5, review links: a signed, expiring, revocable link an account gives the person
 * behind one mind, through which they read their twin's recent answers and confirm or correct them
 * without an account (domain/review-links.ts). Only the SHA-256 of the link's random token is kept:
 * the token itself is shown once, when the link is made. Erased with the mind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('review_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_links_mind_created').on('review_links').columns(['mind_id', 'created_at', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_links').execute();
}
