/**
 * The service as a child process (`node --import tsx src/main.ts`), for what needs a process of its
 * own: start and stop, signals, several API or worker processes, the operator CLI. Most tests use the
 * in-process service (service.ts) instead.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitUntil } from './wait.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Where a test's service answers and what it was started with, in a process or in this one. */
export interface ServiceAddress {
  baseUrl: string;
  /** `${baseUrl}/api/public/v1` */
  api: string;
  /** The owner account's key (Pro); empty when the data folder already had accounts. */
  apiKey: string;
  ownerAccountId: string;
  dataDir: string;
  /** The service's environment: for the operator CLI or a process started on the same data. */
  env: NodeJS.ProcessEnv;
}

export interface TestServer extends ServiceAddress {
  readonly proc: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  start(): Promise<void>;
  admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts the real service (`node --import tsx src/main.ts`) on a free port with a fresh data dir. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-test-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    WORKER_POLL_MS: '50',
    // Tests make many requests with one key: rate limits only where a test sets them.
    RATE_LIMIT_STANDARD: '1000000000',
    RATE_LIMIT_PRO: '1000000000',
    ...extraEnv,
  };
  // The embedded defaults unless a test asks for PostgreSQL, S3 or Redis, whatever the developer's shell holds.
  for (const k of ['DATABASE_URL', 'BLOB_STORE', 'REDIS_URL', 'RATE_LIMIT_STORE']) if (!(k in extraEnv)) delete env[k];
  let out = '';
  let proc: ChildProcess | null = null;
  const launch = async () => {
    const p = spawn(process.execPath, ['src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    p.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    await waitUntil(
      async () => {
        if (p.exitCode !== null) throw new Error(`server exited early:\n${out}`);
        return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.status === 200; // not listening yet: null
      },
      { what: () => `the service at ${baseUrl} ready; its output:\n${out}`, timeoutMs: 30_000 },
    );
  };
  await launch();
  const key = /(msk_[0-9a-f]{8}_[A-Za-z0-9_-]{43})/.exec(out)?.[1] ?? '';
  const accountId = /owner account ([0-9a-f-]{36})/.exec(out)?.[1] ?? '';
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const p = proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  };
  return {
    baseUrl,
    api: `${baseUrl}/api/public/v1`,
    apiKey: key,
    ownerAccountId: accountId,
    dataDir: dir,
    env,
    get proc() {
      if (!proc) throw new Error('not started');
      return proc;
    },
    output: () => out,
    stop,
    start: launch,
    admin: (...args: string[]) => runAdmin(env, ...args),
  };
}

export async function runAdmin(env: NodeJS.ProcessEnv, ...args: string[]) {
  try {
    const r = await run(process.execPath, ['src/cli/admin.ts', ...args], { cwd: ROOT, env });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

