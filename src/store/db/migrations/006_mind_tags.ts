import type { Kysely } from 'kysely';
import { foldKey, freeSlug, slugOf } from '../../../kernel/name-keys.ts';

/**
 * The hosted Mind object and tags. Minds get a slug (unique per account), an email, an image URL,
 * social media links (JSON text), a scope, and folded copies of name and email (`*_key`, see
 * kernel/name-keys.ts) that search and tag lookups compare, the same on SQLite and PostgreSQL.
 * Tags are account-wide, unique per account case-insensitively (`name_key`); mind_tags links them.
 * Snapshots record the person's word tokens (`token_count`) for the mind's tokenCount.
 * Existing rows are filled in: slugs from the names, token counts from the stored profiles.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of [
    ['slug', 'text'],
    ['email', 'text'],
    ['image_url', 'text'],
    ['social_media', 'text'],
    ['name_key', 'text'],
    ['email_key', 'text'],
  ] as const) {
    await db.schema.alterTable('minds').addColumn(column, type).execute();
  }
  await db.schema.alterTable('minds').addColumn('scope', 'text', (c) => c.notNull().defaultTo('private')).execute();
  await db.schema.alterTable('snapshots').addColumn('token_count', 'integer').execute();

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tags_account_name').on('tags').columns(['account_id', 'name_key']).unique().execute();

  await db.schema
    .createTable('mind_tags')
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mind_tags_pk', ['mind_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('mind_tags_tag').on('mind_tags').columns(['tag_id', 'mind_id']).execute();

  await fillMinds(db);
  await db.schema.createIndex('minds_account_slug').on('minds').columns(['account_id', 'slug']).unique().execute();
  await fillTokenCounts(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function fillMinds(db: Kysely<any>): Promise<void> {
  const rows = (await db
    .selectFrom('minds')
    .select(['id', 'account_id', 'name'])
    .orderBy('account_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as Array<{ id: string; account_id: string; name: string }>;
  const taken = new Map<string, Set<string>>();
  for (const r of rows) {
    const slugs = taken.get(r.account_id) ?? new Set<string>();
    taken.set(r.account_id, slugs);
    const slug = freeSlug(slugOf(r.name), slugs);
    slugs.add(slug);
    await db.updateTable('minds').set({ slug, name_key: foldKey(r.name) }).where('id', '=', r.id).execute();
  }
}

/** A completed snapshot's profile counted the person's words (style.words): its token count. Read in batches (profiles are large). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function fillTokenCounts(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom('snapshot_profiles')
      .select(['snapshot_id', 'profile'])
      .where('snapshot_id', '>', after)
      .orderBy('snapshot_id')
      .limit(200)
      .execute()) as Array<{ snapshot_id: string; profile: string }>;
    if (rows.length === 0) return;
    for (const r of rows) {
      const words = wordsOf(r.profile);
      if (words !== null) await db.updateTable('snapshots').set({ token_count: words }).where('id', '=', r.snapshot_id).execute();
    }
    after = rows[rows.length - 1]?.snapshot_id ?? after;
  }
}

function wordsOf(profile: string): number | null {
  try {
    const words = (JSON.parse(profile) as { style?: { words?: unknown } }).style?.words;
    return typeof words === 'number' ? words : null;
  } catch {
    return null;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mind_tags').execute();
  await db.schema.dropTable('tags').execute();
  await db.schema.dropIndex('minds_account_slug').execute();
  await db.schema.alterTable('snapshots').dropColumn('token_count').execute();
  for (const column of ['scope', 'email_key', 'name_key', 'social_media', 'image_url', 'email', 'slug']) {
    await db.schema.alterTable('minds').dropColumn(column).execute();
  }
}
