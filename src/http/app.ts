import crypto from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { identifyApiKey, rejectUnidentified } from './plugins/auth.ts';
import { errorBody, registerErrorHandling } from './plugins/errors.ts';
import { responseSerializerCompiler } from './serializer.ts';
import { meterUsage, registerRateLimit } from './plugins/rate-limit.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { mindRoutes } from './routes/minds.ts';
import { profileRoutes } from './routes/profile.ts';
import { simulateRoutes } from './routes/simulate.ts';
import { snapshotRoutes } from './routes/snapshots.ts';
import { signedUrlRoutes, uploadReceiverRoutes } from './routes/uploads.ts';
import { webhookEventRoutes, webhookReceiverRoutes } from './routes/webhooks.ts';
import type { HttpSettings, Services } from './services.ts';
import { webPages } from '../web/plugin.ts';

export const API_PREFIX = '/api/public/v1';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The Fastify application: cross-cutting plugins, the public API scope, and the unauthenticated receivers. */
export async function buildApp(s: Services, cfg: HttpSettings): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: cfg.logLevel,
      // Never log query strings (signed-URL signatures) or headers (keys, Basic credentials).
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: req.url.split('?')[0], id: req.id }),
      },
    },
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // A hop count trusts that many proxies in front (Fastify's types only take it as a function).
    trustProxy: typeof cfg.trustProxy === 'number' ? trustHops(cfg.trustProxy) : (cfg.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorateRequest('auth', null);
  app.decorateRequest('authFailure', null);
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });
  registerErrorHandling(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mind Simulation Service — public API',
        version: '1.0.0',
        description: 'Create minds from transcripts and simulate how the person would think, feel, say and act.',
      },
      servers: [{ url: cfg.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key' },
          webhookBasic: { type: 'http', scheme: 'basic', description: 'Webhook credentials' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    if (cfg.isReady && !cfg.isReady()) return reply.code(503).send(errorBody('not_ready', 'The service is starting.'));
    return { status: 'ok' };
  });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  await app.register(uploadReceiverRoutes(s));
  await app.register(webhookReceiverRoutes(s, cfg));
  await app.register(mcpRoutes(s, cfg));
  if (cfg.web) await app.register(webPages(s, cfg.web, cfg));

  await app.register(
    async (api) => {
      api.removeContentTypeParser('text/plain'); // the API takes JSON and multipart only: anything else is 415
      // Identify the key, count the request (per key; per address without a valid key), then 401.
      identifyApiKey(api, s.accounts);
      registerRateLimit(api, s.rateLimits);
      rejectUnidentified(api);
      meterUsage(api, s.usage);
      await api.register(mindRoutes(s, cfg));
      await api.register(signedUrlRoutes(s));
      await api.register(snapshotRoutes(s, cfg));
      await api.register(simulateRoutes(s));
      await api.register(profileRoutes(s));
      await api.register(webhookEventRoutes(s, cfg));
    },
    { prefix: API_PREFIX },
  );
  return app;
}
