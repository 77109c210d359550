import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { waitUntil } from './wait.ts';

/**
 * PostgreSQL and S3 for the scale-out tests. PostgreSQL is found through TEST_DATABASE_URL (a
 * role allowed to create databases; `.ci/run` sets it up); without it those tests are skipped
 * with this message. S3 is s3rver, an S3-compatible server started in the test process.
 */
export const pgAdminUrl = process.env.TEST_DATABASE_URL ?? null;
export const PG_SKIP = pgAdminUrl
  ? false
  : 'PostgreSQL tests skipped: set TEST_DATABASE_URL=postgres://user:pass@host/db (a role with CREATEDB), as .ci/run does';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>, adminUrl = pgAdminUrl): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl ?? undefined });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A new empty database on the test server (or on the server of `adminUrl`, a role allowed to create
 * databases: the benchmarks' own setting), dropped (with its connections) by drop().
 */
export async function createDatabase(adminUrl = pgAdminUrl): Promise<TestDatabase> {
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `mindsim_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin((c) => c.query(`create database ${name}`), adminUrl);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(name, adminUrl) };
}

/**
 * Drops a test database with its connections. A role without pg_signal_backend may not end a
 * backend of another role, and an autovacuum worker busy in the database is one (PostgreSQL
 * answers 42501, seen once in CI): the drop is tried again while that worker finishes, up to 50 times.
 */
async function dropDatabase(name: string, adminUrl: string): Promise<void> {
  let attempts = 0;
  await waitUntil(
    async () => {
      try {
        await admin((c) => c.query(`drop database if exists ${name} with (force)`), adminUrl);
        return true;
      } catch (err) {
        if ((err as { code?: string }).code !== '42501' || ++attempts >= 50) throw err;
        return false;
      }
    },
    { what: `database ${name} dropped`, intervalMs: 100 },
  );
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings of the S3 adapter, as environment variables for a service process. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver on a free loopback port with one empty bucket, its files in a temp folder. */
export async function startS3(bucket = 'mindsim'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
