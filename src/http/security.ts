import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { S3Settings } from '../store/config.ts';

/** One year, the usual HSTS lifetime. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The dashboard's Content-Security-Policy: scripts and styles from this origin only (no inline
 * script, no inline event handler, no eval), no framing, forms post back here only. `connect`
 * adds the origins the upload script may PUT to (the S3 endpoint of presigned URLs).
 */
export function pageDirectives(connect: readonly string[] = []): Record<string, string[] | null> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", ...connect],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // Not sent: on a plain-http deployment (the default, 127.0.0.1) it would break every asset.
    'upgrade-insecure-requests': null,
  };
}

/** JSON answers need nothing from a browser: nothing may load, nothing may frame them. */
const API_DIRECTIVES = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] };

/** The helmet options both policies share; only the Content-Security-Policy differs. */
const HELMET = {
  xFrameOptions: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  strictTransportSecurity: false as const,
};

/**
 * The headers helmet sets for these options, computed once: helmet's middleware run against a
 * response that records them. @fastify/helmet built helmet's middleware anew on every request (its
 * options parsed, its CSP string joined), a fifth of the status route's time (BENCHMARKS.md); the
 * headers never change for a route, so they are helmet's own, precomputed.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let ran = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => (ran = true));
  if (!ran) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The security headers of the route (precomputed): the pages' unless the route's scope set the API's. */
    securityHeaders?: Record<string, string>;
  }
}

/**
 * Security headers on every response (helmet's, precomputed per policy): CSP, X-Frame-Options,
 * nosniff, Referrer-Policy, Cross-Origin-*-Policy…; HSTS only on requests that came over https
 * (directly or through a proxy trusted with TRUST_PROXY that says X-Forwarded-Proto: https), since
 * browsers ignore it over http and a plain-http install must stay reachable.
 */
export function registerSecurityHeaders(app: FastifyInstance, uploadOrigins: readonly string[] = []): void {
  const pages = helmetHeaders({ ...HELMET, contentSecurityPolicy: { useDefaults: false, directives: pageDirectives(uploadOrigins) } });
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.routeOptions.config.securityHeaders ?? pages);
    if (req.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
    done();
  });
}

/**
 * JSON answers carry what OWASP's REST Security Cheat Sheet asks of an API: the strict CSP, nosniff,
 * X-Frame-Options, Referrer-Policy, Cross-Origin-Resource-Policy, and `Cache-Control: no-store` (a
 * person's words are never kept by a shared cache); helmet's headers for HTML documents (DNS prefetch,
 * IE's download and XSS filters, Flash policies, origin-keyed agent clusters, the opener policy) mean
 * nothing to a JSON client and cost every answer its bytes and Node's header checks.
 */
const API_HEADERS = {
  ...helmetHeaders({
    ...HELMET,
    contentSecurityPolicy: { useDefaults: false, directives: API_DIRECTIVES },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
  'cache-control': 'no-store',
};

/** Inside the API's scope (and the receivers'): the strict JSON policy instead of the pages' one. */
export function useApiSecurityHeaders(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), securityHeaders: API_HEADERS } as typeof route.config;
  });
}

/** The Swagger UI at /docs draws some of its widgets with inline style attributes; its scripts stay strict. */
export const docsCsp = (header: string) => header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/**
 * Where the dashboard's upload script PUTs with S3_DIRECT_UPLOADS: the endpoint presigned URLs
 * name (with its bucket subdomains unless path-style), or AWS S3 itself. Nothing extra otherwise:
 * signed URLs are then the service's own.
 */
export function uploadOriginsOf(s3: S3Settings | null | undefined): string[] {
  if (!s3?.directUploads) return [];
  const endpoint = s3.publicEndpoint ?? s3.endpoint;
  if (!endpoint) return ['https://*.amazonaws.com'];
  const u = new URL(endpoint);
  return s3.forcePathStyle ? [u.origin] : [u.origin, `${u.protocol}//*.${u.host}`];
}
