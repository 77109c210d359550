import { pathToFileURL } from 'node:url';
import { startServer } from '../testkit/process.ts';
import { loadOnce, startHello } from './measure.ts';
import { withSnapshot } from './rate-limit.ts';

/**
 * Quick check of the status route against the hello-world, without the full `npm run bench`:
 * BENCH_ROUNDS alternating rounds of BENCH_SECONDS each, one line per round. A second baseline
 * answers the status route's own response (its headers and body, captured from the service) with
 * nothing else: the ceiling of any pipeline that sends that response. Extra service env in
 * BENCH_ENV (JSON), e.g. '{"RATE_LIMIT_ENABLED":"false","STATUS_CACHE_MS":"0"}'.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

/** Headers Node or Fastify write themselves (a replay would send them twice). */
const OWN = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

async function main() {
  const srv = await startServer({ LOG_LEVEL: 'warn', ...(JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>) });
  const hellos: Array<{ stop: () => void }> = [];
  try {
    const statusUrl = `${srv.api}${(await withSnapshot(srv)).statusPath}`;
    const headers = { authorization: `Bearer ${srv.apiKey}` };
    const sample = await fetch(statusUrl, { headers });
    const reply = { headers: Object.fromEntries([...sample.headers].filter(([k]) => !OWN.has(k))), body: await sample.text() };
    const bare = await startHello();
    hellos.push(bare);
    const same = await startHello({ HELLO_REPLY: JSON.stringify(reply) });
    hellos.push(same);
    process.stdout.write(`the status response: ${Object.keys(reply.headers).length} headers besides Node's own, ${reply.body.length} bytes of body\n`);
    for (let i = 0; i < rounds; i++) {
      const h = await loadOnce({ url: bare.url, connections: 50, duration: seconds });
      const m = await loadOnce({ url: same.url, connections: 50, duration: seconds });
      const s = await loadOnce({ url: statusUrl, headers, connections: 50, duration: seconds });
      const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
      process.stdout.write(
        `hello ${h.rps.toFixed(0)}  hello with the status response ${m.rps.toFixed(0)} (${pct(m.rps, h.rps)})  status ${s.rps.toFixed(0)} (non2xx ${s.non2xx})  ${pct(s.rps, h.rps)} of hello, ${pct(s.rps, m.rps)} of its ceiling\n`,
      );
    }
  } finally {
    for (const h of hellos) h.stop();
    await srv.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
