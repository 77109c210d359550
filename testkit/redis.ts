import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './process.ts';
import { waitUntil } from './wait.ts';

/** Debian's redis-server, when installed (`.ci/run` installs it); the Redis tests are skipped without it. */
export const REDIS_SKIP = spawnSync('redis-server', ['--version']).status === 0 ? false : 'Redis tests skipped: redis-server is not installed';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a free loopback port, without persistence. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await waitUntil(
      () => {
        if (proc.exitCode !== null) throw new Error(`redis-server exited:\n${out}`);
        return /Ready to accept connections/.test(out);
      },
      { what: 'redis-server ready', timeoutMs: 10_000 },
    );
  } catch (err) {
    proc.kill();
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
