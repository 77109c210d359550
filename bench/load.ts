import autocannon from 'autocannon';

/**
 * One autocannon run in its own process (so the benchmark driver's event loop never competes
 * with the load generator): options as JSON in argv[2], a 2 s warm-up, then the result as JSON.
 */
const given = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options & { uniqueScenarios?: boolean };
const { uniqueScenarios, ...rest } = given;
/**
 * `uniqueScenarios`: each request's body is the given one with its `scenario.message` made unique
 * (a number added), so no request finds its scenario's embedding already computed.
 */
let n = 0;
const opts: autocannon.Options = uniqueScenarios
  ? {
      ...rest,
      requests: [
        {
          setupRequest: (req) => {
            const body = JSON.parse(String(rest.body)) as { scenario: { message: string } };
            body.scenario.message = `${body.scenario.message} (case ${++n})`;
            return { ...req, body: JSON.stringify(body) };
          },
        },
      ],
    }
  : rest;
await autocannon({ ...opts, duration: 2 });
const r = await autocannon(opts);
process.stdout.write(
  JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx }),
);
