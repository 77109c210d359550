import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySession from '@fastify/session';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/services.ts';
import { attachViewer, registerPageErrors } from './guard.ts';
import { auditTrail } from '../http/plugins/audit.ts';
import { PAGE_AUDITED, pageAuth } from './audit-pages.ts';
import { accountPages } from './routes/account.ts';
import { auditPages } from './routes/audit.ts';
import { authPages } from './routes/auth.ts';
import { keyPages } from './routes/keys.ts';
import { mindPages } from './routes/minds.ts';
import { conversationPages } from './routes/conversations.ts';
import { mindDetailPages } from './routes/mind.ts';
import { mindConsentPages } from './routes/mind-consent.ts';
import { mindRedactionPages } from './routes/mind-redaction.ts';
import { mindExportPages } from './routes/mind-export.ts';
import { mindCorrectionPages } from './routes/mind-corrections.ts';
import { reviewPages } from './routes/review.ts';
import { panelPages } from './routes/panels.ts';
import { usagePages } from './routes/usage.ts';
import { webhookPages } from './routes/webhooks.ts';
import type { WebSettings } from './settings.ts';

const PUBLIC = path.join(import.meta.dirname, 'public');
const HTMX = path.dirname(fileURLToPath(import.meta.resolve('htmx.org')));
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The dashboard at `/`: server-rendered pages (Eta templates) enhanced with htmx, on their own
 * encapsulated scope: cookies, sessions, CSRF and form bodies exist here and nowhere in the API.
 */
export function webPages(s: Services, web: WebSettings) {
  return async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true }; // pages are not part of the OpenAPI document
    });
    // Assets sit outside the session scope: serving them reads no session and no account.
    await app.register(fastifyStatic, { root: PUBLIC, prefix: '/assets/', maxAge: '1h' });
    await app.register(fastifyStatic, { root: HTMX, prefix: '/assets/vendor/', decorateReply: false, maxAge: '1d' });

    await app.register(sessionPages(s, web));
  };
}

/** The pages proper: cookies, the session, CSRF, form bodies and log-in throttling, then the routes. */
function sessionPages(s: Services, web: WebSettings) {
  return async (app: FastifyInstance) => {
    // `Secure` whenever the request came over https (directly, or via a proxy trusted with TRUST_PROXY).
    const cookie = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: 'auto' as const };
    await app.register(fastifyCookie, { secret: web.sessionSecret });
    await app.register(fastifySession, {
      secret: web.sessionSecret,
      cookieName: 'mindsim_session',
      cookie: { ...cookie, maxAge: web.sessionTtlMs },
      store: web.sessionStore,
      saveUninitialized: false,
      rolling: false,
    });
    // Double-submit token: the secret lives in a signed HttpOnly cookie, the token in every form
    // and in htmx's X-CSRF-Token header. Checked on every state-changing request below.
    await app.register(fastifyCsrf, { sessionPlugin: '@fastify/cookie', cookieKey: 'mindsim_csrf', cookieOpts: { ...cookie, signed: true } });
    await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
    // Password guessing: log-in and sign-up attempts are limited per client address (in memory, per process).
    await app.register(fastifyRateLimit, {
      global: false,
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        message: `Too many attempts from your address. Wait ${Math.max(1, Math.ceil(ctx.ttl / 1000))} seconds and try again.`,
      }),
    });

    app.decorateRequest('viewer', null);
    registerPageErrors(app);
    app.addHook('preHandler', (req, reply, done) => {
      if (UNSAFE.has(req.method)) app.csrfProtection(req, reply, done);
      else done();
    });
    app.addHook('preHandler', attachViewer(s));
    // The access log: each audited page's row is committed before the page leaves (audit-pages.ts).
    await app.register(auditTrail, { accessLog: s.accessLog, audited: PAGE_AUDITED, keyOf: (method, url) => `${method} ${url}`, authOf: pageAuth });

    const attempts = { max: web.loginRateLimit, timeWindow: 60_000 };
    await app.register(authPages(s, attempts));
    await app.register(keyPages(s));
    await app.register(mindPages(s));
    await app.register(mindDetailPages(s));
    await app.register(mindConsentPages(s));
    await app.register(mindRedactionPages(s));
    await app.register(mindExportPages(s));
    await app.register(mindCorrectionPages(s));
    await app.register(conversationPages(s));
    await app.register(reviewPages(s));
    await app.register(auditPages(s));
    await app.register(panelPages(s));
    await app.register(webhookPages(s));
    await app.register(usagePages(s));
    await app.register(accountPages(s, attempts));
  };
}
