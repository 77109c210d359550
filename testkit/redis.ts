import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './process.ts';

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
  const deadline = Date.now() + 10_000;
  while (!/Ready to accept connections/.test(out)) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill();
      throw new Error(`redis-server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
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
