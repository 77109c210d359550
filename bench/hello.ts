import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify hello-world, started in the same benchmark run as the service. With
 * HELLO_REPLY (JSON: {headers, body}) it answers that instead: the status route's own response
 * (its headers and body, captured from the service), so the gap between the two baselines is what
 * the response's size and headers cost, and the gap to the service is the pipeline's own work.
 */
const reply = process.env.HELLO_REPLY ? (JSON.parse(process.env.HELLO_REPLY) as { headers: Record<string, string>; body: string }) : null;
const app = Fastify({ logger: false });
if (reply) app.get('/', (_req, res) => res.headers(reply.headers).send(reply.body));
else app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write('ready\n');
