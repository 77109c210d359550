import type { Kysely } from 'kysely';

/**
 * Fair turns in the job queue (store/queue/db-queue.ts): a job may name a group (a snapshot's job,
 * its account), and records when it was last claimed, so a claim can take the job of the group
 * served least recently. Jobs enqueued before this migration have no group: they go first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('group_key', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('claimed_at', 'text').execute();
  // The claim's two lookups per candidate job: its group's jobs running now, its group's last claim.
  await db.schema.createIndex('jobs_group_state').on('jobs').columns(['group_key', 'state']).execute();
  await db.schema.createIndex('jobs_group_claimed').on('jobs').columns(['group_key', 'claimed_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_group_claimed').execute();
  await db.schema.dropIndex('jobs_group_state').execute();
  await db.schema.alterTable('jobs').dropColumn('claimed_at').execute();
  await db.schema.alterTable('jobs').dropColumn('group_key').execute();
}
