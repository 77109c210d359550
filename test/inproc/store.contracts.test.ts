import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import SqliteConnection from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { DomainError } from '../../src/kernel/errors.ts';
import type { Runtime } from '../../src/kernel/runtime.ts';
import { systemRuntime } from '../../src/kernel/runtime.ts';
import type { BlobStore } from '../../src/store/blobs/blob-store.ts';
import { FilesystemBlobStore } from '../../src/store/blobs/filesystem.ts';
import { S3BlobStore } from '../../src/store/blobs/s3.ts';
import { openPostgres } from '../../src/store/db/postgres.ts';
import type { Database } from '../../src/store/db/schema.ts';
import { openSqlite } from '../../src/store/db/sqlite.ts';
import { DbJobQueue } from '../../src/store/queue/db-queue.ts';
import type { JobQueue } from '../../src/store/queue/job-queue.ts';
import { PG_SKIP, createDatabase, startS3, type TestDatabase, type TestS3 } from '../../testkit/scale.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-contract-'));

/** The BlobStore port's contract: every adapter must pass it. */
function blobContract(name: string, make: () => Promise<BlobStore>) {
  describe(`BlobStore contract: ${name}`, { concurrency: false }, () => {
    it('stores a stream whole and reads it back', async () => {
      const store = await make();
      const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
      const { size } = await store.putStream('artifacts/m/a1', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), {
        maxBytes: 1_000_000,
      });
      assert.equal(size, bytes.length);
      assert.ok((await store.get('artifacts/m/a1')).equals(bytes));
      assert.equal(await store.size('artifacts/m/a1'), bytes.length);
    });

    it('rejects past maxBytes with too_large and leaves nothing behind', async () => {
      const store = await make();
      const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
      await assert.rejects(store.putStream('artifacts/m/big', body, { maxBytes: 1000 }), (e: unknown) => {
        return e instanceof DomainError && e.kind === 'too_large';
      });
      assert.equal(await store.size('artifacts/m/big'), null);
    });

    it('a failed stream never publishes a partial blob', async () => {
      const store = await make();
      const body = new Readable({
        read() {
          this.push(Buffer.alloc(100));
          this.destroy(new Error('client went away'));
        },
      });
      await assert.rejects(store.putStream('artifacts/m/partial', body, { maxBytes: 1000 }));
      assert.equal(await store.size('artifacts/m/partial'), null);
    });

    it('puts buffers, deletes idempotently, refuses keys that escape the store', async () => {
      const store = await make();
      await store.putBuffer('artifacts/m/b', Buffer.from('hello'));
      assert.equal((await store.get('artifacts/m/b')).toString(), 'hello');
      await store.delete('artifacts/m/b');
      await store.delete('artifacts/m/b');
      assert.equal(await store.size('artifacts/m/b'), null);
      await assert.rejects(store.putBuffer('../outside', Buffer.from('x')));
      await assert.rejects(store.get('/etc/passwd'));
    });

    it('streams a blob back whole, and rejects a missing one at once', async () => {
      const store = await make();
      const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));
      await store.putBuffer('artifacts/m/streamed', bytes);
      const chunks: Buffer[] = [];
      for await (const chunk of await store.getStream('artifacts/m/streamed')) chunks.push(chunk as Buffer);
      assert.ok(Buffer.concat(chunks).equals(bytes));
      await assert.rejects(store.getStream('artifacts/m/never-written'));
    });

    it('deletes a folder of blobs and nothing beside it', async () => {
      const store = await make();
      for (const k of ['artifacts/gone/a', 'artifacts/gone/b', 'artifacts/gone-not/c', 'artifacts/kept/d']) await store.putBuffer(k, Buffer.from(k));
      await store.deletePrefix('artifacts/gone');
      await store.deletePrefix('artifacts/never-there');
      assert.equal(await store.size('artifacts/gone/a'), null);
      assert.equal(await store.size('artifacts/gone/b'), null);
      assert.equal(await store.size('artifacts/gone-not/c'), 'artifacts/gone-not/c'.length);
      assert.equal(await store.size('artifacts/kept/d'), 'artifacts/kept/d'.length);
    });

    it('streams a body larger than one S3 part (multipart) whole', async () => {
      const store = await make();
      const bytes = Buffer.alloc(11 * 1024 * 1024 + 7, 0x5a);
      const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
      assert.equal((await store.putStream('artifacts/m/large', Readable.from(chunks), { maxBytes: 20 * 1024 * 1024 })).size, bytes.length);
      assert.ok((await store.get('artifacts/m/large')).equals(bytes));
      const over = Readable.from(chunks);
      await assert.rejects(store.putStream('artifacts/m/over', over, { maxBytes: 6 * 1024 * 1024 }), (e: unknown) => e instanceof DomainError && e.kind === 'too_large');
      assert.equal(await store.size('artifacts/m/over'), null);
    });
  });
}

blobContract('filesystem', async () => new FilesystemBlobStore(tmp()));

let s3: TestS3 | null = null;
after(() => s3?.close());
blobContract('S3 (s3rver)', async () => {
  s3 ??= await startS3();
  const store = new S3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });
  after(() => store.close());
  return store;
});

/** A clock the test moves by hand. */
function manualRuntime(): Runtime & { advance(ms: number): void } {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  return { ...systemRuntime, now: () => new Date(now), advance: (ms) => (now += ms) };
}

/** The JobQueue port's contract: every adapter must pass it. */
function queueContract(name: string, make: (rt: Runtime) => Promise<JobQueue>, opts: { skip?: string | false } = {}) {
  describe(`JobQueue contract: ${name}`, { skip: opts.skip, concurrency: false }, () => {
    it('delivers a job once while its lease holds, in order of run time', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const a = await q.enqueue('k', { n: 1 });
      rt.advance(1);
      const b = await q.enqueue('k', { n: 2 });
      const first = await q.claim('w1', 1000);
      assert.equal(first?.id, a);
      assert.deepEqual(first?.payload, { n: 1 });
      assert.equal(first?.attempts, 1);
      assert.equal((await q.claim('w2', 1000))?.id, b);
      assert.equal(await q.claim('w3', 1000), null);
    });

    it('hands out again a job whose lease expired (at-least-once), unless it is extended', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const id = await q.enqueue('k', {}, { maxAttempts: 3 });
      await q.claim('w1', 1000);
      rt.advance(800);
      assert.equal(await q.extend(id, 'w1', 1000), true);
      rt.advance(800);
      assert.equal(await q.claim('w2', 1000), null, 'extended lease still holds');
      rt.advance(500);
      const again = await q.claim('w2', 1000);
      assert.equal(again?.id, id);
      assert.equal(again?.attempts, 2);
      assert.equal(await q.extend(id, 'w1', 1000), false, 'the first worker lost it');
      await q.complete(id, 'w1'); // a stale worker cannot complete it
      rt.advance(2000);
      assert.equal((await q.claim('w3', 1000))?.attempts, 3);
    });

    it('retries with a delay, and ends jobs that used up their attempts', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const id = await q.enqueue('k', { x: 1 }, { maxAttempts: 2 });
      await q.claim('w', 1000);
      await q.retry(id, 'w', 'boom', 5000);
      assert.equal(await q.claim('w', 1000), null);
      rt.advance(5000);
      const second = await q.claim('w', 1000);
      assert.equal(second?.attempts, 2);
      rt.advance(1001); // the worker died on its last attempt
      assert.equal(await q.claim('w', 1000), null);
      const reaped = await q.reapExhausted();
      assert.deepEqual(reaped.map((j) => j.id), [id]);
      assert.deepEqual(await q.reapExhausted(), []);
    });

    it('concurrent claims never hand out the same job twice', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const ids = new Set<string>();
      for (let i = 0; i < 12; i++) ids.add(await q.enqueue('k', { i }));
      const claimed = await Promise.all(Array.from({ length: 16 }, (_, i) => q.claim(`w${i}`, 60_000)));
      const got = claimed.filter((j) => j !== null).map((j) => j.id);
      assert.equal(got.length, 12);
      assert.deepEqual(new Set(got), ids);
    });

    it('a released job is handed out again at once, its attempt not counted', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const id = await q.enqueue('k', {}, { maxAttempts: 2 });
      await q.claim('w1', 60_000);
      await q.release(id, 'w2'); // not w2's: nothing happens
      assert.equal(await q.claim('w2', 60_000), null);
      await q.release(id, 'w1');
      const again = await q.claim('w2', 60_000);
      assert.equal(again?.id, id);
      assert.equal(again?.attempts, 1);
    });

    it('groups take turns: the fewest running first, then the one served least recently, then the job due first', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const a = [];
      for (let i = 0; i < 3; i++) {
        a.push(await q.enqueue('k', { a: i }, { group: 'account-a' }));
        rt.advance(1);
      }
      const b1 = await q.enqueue('k', { b: 1 }, { group: 'account-b' });
      rt.advance(1);
      assert.equal((await q.claim('w1', 60_000))?.id, a[0], 'no group served yet: the job due first');
      rt.advance(1);
      assert.equal((await q.claim('w2', 60_000))?.id, b1, 'account-a has a job running, account-b none');
      rt.advance(1);
      await q.complete(a[0] ?? '', 'w1');
      await q.complete(b1, 'w2');
      const b2 = await q.enqueue('k', { b: 2 }, { group: 'account-b' });
      rt.advance(1);
      assert.equal((await q.claim('w1', 60_000))?.id, a[1], 'account-a was served before account-b');
      rt.advance(1);
      await q.complete(a[1] ?? '', 'w1');
      assert.equal((await q.claim('w1', 60_000))?.id, b2, 'then account-b, though its job is younger');
      rt.advance(1);
      assert.equal((await q.claim('w2', 60_000))?.id, a[2]);
      const legacy = await q.enqueue('k', {});
      assert.equal((await q.claim('w3', 60_000))?.id, legacy, 'a job without a group goes first');
    });

    it('completed and failed jobs are never delivered again', async () => {
      const rt = manualRuntime();
      const q = await make(rt);
      const a = await q.enqueue('k', {});
      const b = await q.enqueue('k', {});
      await q.claim('w', 1000);
      await q.complete(a, 'w');
      await q.claim('w', 1000);
      await q.fail(b, 'w', 'bad');
      rt.advance(10_000);
      assert.equal(await q.claim('w', 1000), null);
    });
  });
}

queueContract('SQLite table', async (rt) => new DbJobQueue(await openSqlite(tmp()), rt, 3));

let pgDb: TestDatabase | null = null;
let pgConn: Kysely<Database> | null = null;
after(async () => {
  await pgConn?.destroy();
  await pgDb?.drop();
});
queueContract(
  'PostgreSQL table',
  async (rt) => {
    pgDb ??= await createDatabase();
    pgConn ??= await openPostgres(pgDb.url);
    await pgConn.deleteFrom('jobs').execute();
    return new DbJobQueue(pgConn, rt, 3);
  },
  { skip: PG_SKIP },
);

describe('SQLite transactions beside another process', () => {
  it('take the write lock when they begin: a write committed elsewhere between their read and their write cannot fail them', async () => {
    const dir = tmp();
    const db = await openSqlite(dir);
    // The other process: its own connection to the same file, not waiting for locks.
    const other = new SqliteConnection(path.join(dir, 'mindsim.sqlite'));
    other.pragma('busy_timeout = 0');
    const insertJob = other.prepare("insert into jobs (id, kind, payload, state, run_at, max_attempts, created_at, updated_at) values (?, 'k', '{}', 'done', '', 1, '', '')");
    try {
      let otherWrite = 'not tried';
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('jobs').select('id').execute();
        // A deferred transaction holds only a read snapshot here: the other write would commit,
        // and the write below would fail at once with SQLITE_BUSY (its snapshot is stale).
        try {
          insertJob.run('j0');
          otherWrite = 'committed';
        } catch (err) {
          otherWrite = (err as { code?: string }).code ?? String(err);
        }
        await trx.deleteFrom('jobs').where('id', '=', 'nothing').execute();
      });
      assert.equal(otherWrite, 'SQLITE_BUSY', 'the other process waits for this transaction');
      insertJob.run('j1');
      assert.equal((other.prepare('select count(*) as n from jobs').get() as { n: number }).n, 1, 'and writes once it has ended');
    } finally {
      other.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
