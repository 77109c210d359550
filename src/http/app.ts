import crypto from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { DestinationStream } from 'pino';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { parseJsonBody } from '../kernel/json-text.ts';
import { apiPipeline } from './plugins/api-pipeline.ts';
import { auditTrail } from './plugins/audit.ts';
import { API_AUDITED, apiRouteKey } from './audit-routes.ts';
import { rejectNulText } from './plugins/text-guard.ts';
import { clientErrorHandler, frameworkErrors, registerErrorHandling, sendError } from './plugins/errors.ts';
import { responseSerializerCompiler } from './serializer.ts';
import { accountRoutes } from './routes/account.ts';
import { digitalTwinRoutes } from './routes/digital-twins.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { mindRoutes } from './routes/minds.ts';
import { panelRoutes } from './routes/panels.ts';
import { profileRoutes } from './routes/profile.ts';
import { psychometricsRoutes } from './routes/psychometrics.ts';
import { simulateRoutes } from './routes/simulate.ts';
import { simulationRoutes } from './routes/simulations.ts';
import { snapshotRoutes } from './routes/snapshots.ts';
import { tagRoutes } from './routes/tags.ts';
import { signedUrlRoutes, uploadReceiverRoutes } from './routes/uploads.ts';
import { usageRoutes } from './routes/usage.ts';
import { exportRoutes } from './routes/export.ts';
import { auditRoutes } from './routes/audit.ts';
import { correctionRoutes } from './routes/corrections.ts';
import { reviewLinkRoutes } from './routes/review-links.ts';
import { webhookEventRoutes, webhookReceiverRoutes } from './routes/webhooks.ts';
import { lazyChildLogger } from './lazy-logger.ts';
import { docsCsp, registerSecurityHeaders, uploadOriginsOf, useApiSecurityHeaders } from './security.ts';
import type { HttpSettings, Services } from './services.ts';
import type { Config } from '../config.ts';

export const API_PREFIX = '/api/public/v1';
/** The hosted service's newer base path: the same API, one implementation, under both prefixes. */
export const API_PREFIXES = [API_PREFIX, '/api/mindsim'] as const;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Credentials that plugins may put in a log line (@fastify/multipart logs busboy's options, the
 * request headers among them, at trace level): censored wherever they appear one or two levels down.
 */
const SECRET_HEADERS = ['authorization', 'cookie', '"x-csrf-token"', '"set-cookie"'];
const REDACT = SECRET_HEADERS.flatMap((h) => [`headers.${h}`, `*.headers.${h}`, `*.*.headers.${h}`]);

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The HTTP settings of a configuration (main.ts, and tests that build the app in-process). */
export function httpSettings(config: Config, extra: Partial<HttpSettings> = {}): HttpSettings {
  return {
    publicUrl: config.publicUrl,
    maxDirectFileBytes: config.maxDirectFileBytes,
    maxUploadBytes: config.maxUploadBytes,
    maxWebhookBytes: config.maxWebhookBytes,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    uploadOrigins: uploadOriginsOf(config.store.s3),
    ...extra,
  };
}

/** A request's path as the log writes it: no query string, and a review link's token (the person's credential) left out. */
const loggedPath = (url: string) => (url.split('?')[0] ?? '').replace(/^\/review\/[^/]+/, '/review/[token]');

/** The Fastify application: cross-cutting plugins, the public API scope, and the unauthenticated receivers. */
export async function buildApp(s: Services, cfg: HttpSettings, pages?: FastifyPluginAsync): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: cfg.logLevel,
      // Never log query strings (signed-URL signatures), review links' tokens or headers (keys, Basic credentials).
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: loggedPath(req.url), id: req.id }),
      },
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(cfg.logStream ? { stream: cfg.logStream as DestinationStream } : {}),
    },
    frameworkErrors,
    clientErrorHandler,
    bodyLimit: 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // A hop count trusts that many proxies in front (Fastify's types only take it as a function).
    trustProxy: typeof cfg.trustProxy === 'number' ? trustHops(cfg.trustProxy) : (cfg.trustProxy ?? false),
  }).withTypeProvider<ZodTypeProvider>();

  if (cfg.onRoute) app.addHook('onRoute', (route) => cfg.onRoute?.({ method: route.method, url: route.url }));
  // req.log is made when a request first writes to it (most never do at the configured level).
  app.setChildLoggerFactory(lazyChildLogger);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.decorateRequest('auth', null);
  app.decorateRequest('authFailure', null);
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });
  registerErrorHandling(app);
  // Every JSON body (the API, /mcp, the dashboard) is read by one parser: nesting checked before parsing, prototype keys named when refused.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error);
    }
  });
  app.addHook('preValidation', rejectNulText);
  registerSecurityHeaders(app, cfg.uploadOrigins);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mind Simulation Service — public API',
        version: '1.0.0',
        description:
          'Create minds from transcripts and simulate how the person would think, feel, say and act. ' +
          `Every operation below is served under both ${API_PREFIXES.join(' and ')} (the hosted service's older and newer base paths).`,
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
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', transformStaticCSP: docsCsp });

  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    if (cfg.isReady && !cfg.isReady()) return sendError(reply, 503, 'not_ready', 'The service is starting.');
    return { status: 'ok' };
  });

  // The receivers and /mcp answer JSON, with the API's strict security headers.
  await app.register(async (json) => {
    useApiSecurityHeaders(json);
    await json.register(uploadReceiverRoutes(s));
    await json.register(webhookReceiverRoutes(s, cfg));
    await json.register(mcpRoutes(s, cfg));
  });
  // The dashboard, when the composition root gives it (web/ is wired there, not imported here).
  if (pages) await app.register(pages);

  for (const prefix of API_PREFIXES) {
    app.get(`${prefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
    await app.register(apiScope(s, cfg, prefix === API_PREFIX), { prefix });
  }
  return app;
}

/**
 * The public API: JSON and multipart only, the request pipeline, then the resources. The OpenAPI
 * document lists each operation once, under API_PREFIX; its description names the other prefix.
 */
const apiScope =
  (s: Services, cfg: HttpSettings, documented: boolean): FastifyPluginAsync =>
  async (api) => {
    if (!documented) api.addHook('onRoute', (route) => void (route.schema = { ...route.schema, hide: true }));
    api.removeContentTypeParser('text/plain'); // the API takes JSON and multipart only: anything else is 415
    useApiSecurityHeaders(api);
    await api.register(apiPipeline, { services: s });
    // The access log: each audited route's row is committed before its answer leaves (http/audit-routes.ts).
    await api.register(auditTrail, { accessLog: s.accessLog, audited: API_AUDITED, keyOf: apiRouteKey, authOf: (req) => req.auth });
    await api.register(mindRoutes(s, cfg));
    await api.register(tagRoutes(s));
    await api.register(signedUrlRoutes(s));
    await api.register(snapshotRoutes(s, cfg));
    await api.register(simulateRoutes(s));
    await api.register(simulationRoutes(s));
    await api.register(correctionRoutes(s, cfg));
    await api.register(reviewLinkRoutes(s));
    await api.register(panelRoutes(s));
    await api.register(profileRoutes(s));
    await api.register(digitalTwinRoutes(s));
    await api.register(psychometricsRoutes(s));
    await api.register(webhookEventRoutes(s, cfg));
    await api.register(usageRoutes(s));
    await api.register(exportRoutes(s));
    await api.register(accountRoutes(s));
    await api.register(auditRoutes(s, cfg));
  };
