import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type autocannon from 'autocannon';
import { waitForSnapshot, type Client } from '../testkit/http.ts';
import { freePort } from '../testkit/process.ts';

/** Resident memory of a process, in bytes, from /proc. */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Waits for a snapshot to complete and returns its own createdAt → completedAt time, in ms. */
export async function processingMs(api: Client, mindId: string, snapshotId: string, timeoutMs?: number): Promise<number> {
  const s = await waitForSnapshot(api, mindId, snapshotId, timeoutMs);
  if (s.status !== 'completed') throw new Error(`snapshot ${snapshotId} ${s.status}: ${JSON.stringify(s.error)}`);
  return Date.parse(s.completedAt) - Date.parse(s.createdAt);
}

/** One autocannon result, averaged over rounds where several ran. */
export interface LoadRow {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** requests/s of each round, where several ran */
  rounds?: number[];
}

/** Runs bench/load.ts in a child process (so the driver never competes with the load) and reads its JSON result. */
export function loadOnce(opts: autocannon.Options): Promise<Omit<LoadRow, 'name'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=mindsim-source', 'bench/load.ts', JSON.stringify(opts)], {
      cwd: path.resolve(import.meta.dirname, '..'),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Omit<LoadRow, 'name'>) : reject(new Error(`load exited ${code}`))));
  });
}

/**
 * The baseline: bench/hello.ts (a bare Fastify hello-world) in a process of its own on a free port;
 * `env` reaches it (HELLO_REPLY: the response to send instead of hello-world).
 */
export async function startHello(env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['bench/hello.ts'], { cwd: path.resolve(import.meta.dirname, '..'), env: { ...process.env, ...env, PORT: String(port) } });
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    proc.once('exit', () => reject(new Error('hello-world exited')));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => proc.kill() };
}
