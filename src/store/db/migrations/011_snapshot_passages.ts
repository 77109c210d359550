import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * The passages of a completed snapshot with their sentence-encoder vectors (memory/build/passages.ts),
 * one row per snapshot so a mind's vectors load in one read: spans as int32 pairs of seq numbers,
 * vectors as int8 with one float32 scale each, and the encoder that made them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const binary = dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('snapshot_passages')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey())
    .addColumn('mind_id', 'text', (c) => c.notNull())
    .addColumn('encoder', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('spans', binary, (c) => c.notNull())
    .addColumn('vectors', binary, (c) => c.notNull())
    .addColumn('scales', binary, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_passages_mind').on('snapshot_passages').column('mind_id').execute();
}
