import Fastify from 'fastify';

/** The baseline: a bare Fastify hello-world, started in the same benchmark run as the service. */
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write('ready\n');
