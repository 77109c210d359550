import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, startServer } from '../testkit/process.ts';
import { loadOnce } from './measure.ts';
import { withSnapshot } from './rate-limit.ts';

/**
 * Quick check of the status route against the hello-world, without the full `npm run bench`:
 * BENCH_ROUNDS alternating rounds of BENCH_SECONDS each, one line per run. Extra service env in
 * BENCH_ENV (JSON), e.g. '{"RATE_LIMIT_ENABLED":"false","STATUS_CACHE_MS":"0"}'.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function main() {
  const port = await freePort();
  const hello = spawn(process.execPath, ['bench/hello.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port) } });
  await new Promise<void>((resolve) => hello.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
  const srv = await startServer({ LOG_LEVEL: 'warn', ...(JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>) });
  try {
    const statusUrl = `${srv.api}${(await withSnapshot(srv)).statusPath}`;
    const headers = { authorization: `Bearer ${srv.apiKey}` };
    for (let i = 0; i < rounds; i++) {
      const h = await loadOnce({ url: `http://127.0.0.1:${port}/`, connections: 50, duration: seconds });
      const s = await loadOnce({ url: statusUrl, headers, connections: 50, duration: seconds });
      process.stdout.write(`hello ${h.rps.toFixed(0)}  status ${s.rps.toFixed(0)} (non2xx ${s.non2xx})  ${((100 * s.rps) / h.rps).toFixed(1)}%\n`);
    }
  } finally {
    hello.kill();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
