import autocannon from 'autocannon';

/**
 * One autocannon run in its own process (so the benchmark driver's event loop never competes
 * with the load generator): options as JSON in argv[2], a 2 s warm-up, then the result as JSON.
 */
const opts = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
await autocannon({ ...opts, duration: 2 });
const r = await autocannon(opts);
process.stdout.write(
  JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }),
);
