import path from 'node:path';
import type { Config } from '../config.ts';
import type { Runtime } from '../kernel/runtime.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { FilesystemBlobStore } from './blobs/filesystem.ts';
import { DbJobQueue } from './queue/db-queue.ts';
import { Store } from './store.ts';

/**
 * The database (SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL), its job queue, and the blob
 * store (DATA_DIR/blobs, or S3 with BLOB_STORE=s3), picked from configuration. The adapters not
 * picked are not loaded: pg, better-sqlite3 and the AWS SDK are imported only by the one in use.
 */
export async function openStorage(config: Config, rt: Runtime, onQuery?: (sql: string) => void): Promise<{ store: Store; blobs: BlobStore }> {
  const { databaseUrl, databasePoolSize, s3 } = config.store;
  const db = databaseUrl
    ? await (await import('./db/postgres.ts')).openPostgres(databaseUrl, { poolSize: databasePoolSize, onQuery })
    : await (await import('./db/sqlite.ts')).openSqlite(config.dataDir, onQuery);
  const store = new Store(db, (conn) => new DbJobQueue(conn, rt, config.jobMaxAttempts));
  const blobs = s3 ? new (await import('./blobs/s3.ts')).S3BlobStore(s3) : new FilesystemBlobStore(path.join(config.dataDir, 'blobs'));
  return { store, blobs };
}
