import type { Kysely } from 'kysely';
import { emailKey } from '../../../domain/email.ts';

/**
 * One account per real address (issue 30, item 6): `accounts.email_key`, the skeleton of the
 * address (UTS #39: characters that pass for one another mapped to one), under a unique index, so
 * that no second account can hold an address that looks the same, whatever the race. Existing
 * accounts get theirs; of accounts that already look alike (made before this check), the oldest
 * keeps the key and the others none: they stay as they are and can still log in.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('email_key', 'text').execute();
  const accounts = (await db.selectFrom('accounts').select(['id', 'email']).orderBy('created_at').orderBy('id').execute()) as Array<{ id: string; email: string }>;
  const taken = new Set<string>();
  for (const a of accounts) {
    const key = emailKey(a.email);
    if (taken.has(key)) continue;
    taken.add(key);
    await db.updateTable('accounts').set({ email_key: key }).where('id', '=', a.id).execute();
  }
  // Not accounts_email_key: PostgreSQL already names the email column's UNIQUE constraint so.
  await db.schema.createIndex('accounts_email_skeleton_unique').on('accounts').column('email_key').unique().execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('accounts_email_skeleton_unique').ifExists().execute();
  await db.schema.alterTable('accounts').dropColumn('email_key').execute();
}
