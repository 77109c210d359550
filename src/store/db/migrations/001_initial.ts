import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/** The first schema. Written with Kysely's schema builder so it runs on SQLite and PostgreSQL alike. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL's `real` is 4 bytes; seconds keep SQLite's 8-byte precision there.
  const seconds = dialectOf(db) === 'postgres' ? 'double precision' : 'real';
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('minds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('minds_account_created').on('minds').columns(['account_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('digital_twins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('digital_twins_mind').on('digital_twins').column('mind_id').execute();

  await db.schema
    .createTable('artifacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('upload_expires_at', 'text')
    .addColumn('uploaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('artifacts_mind').on('artifacts').column('mind_id').execute();

  await db.schema
    .createTable('snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull().references('minds.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('artifact_id', 'text', (c) => c.notNull())
    .addColumn('digital_twin_id', 'text')
    .addColumn('speaker', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('file_kind', 'text')
    .addColumn('person', 'text')
    .addColumn('memory_count', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('snapshots_mind_created').on('snapshots').columns(['mind_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('memories')
    // SQLite: integer primary key autoincrement; PostgreSQL: an identity column.
    .addColumn('id', 'integer', (c) =>
      dialectOf(db) === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('snapshot_id', 'text', (c) => c.notNull().references('snapshots.id').onDelete('cascade'))
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('speaker', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('start_s', seconds)
    .addColumn('end_s', seconds)
    .addColumn('page', 'integer')
    .addColumn('question', 'text')
    .execute();
  await db.schema.createIndex('memories_snapshot_seq').on('memories').columns(['snapshot_id', 'seq']).unique().execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['state', 'run_at']).execute();

  await db.schema
    .createTable('webhook_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_events_account_received')
    .on('webhook_events')
    .columns(['account_id', 'received_at', 'id'])
    .execute();

  await db.schema
    .createTable('service_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
