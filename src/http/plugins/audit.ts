import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { actorOf, type AccessLogService, type AccessRecord } from '../../domain/access-log.ts';
import type { AuthContext } from '../../domain/accounts.ts';
import { DomainError } from '../../kernel/errors.ts';

/** What a route's audit entry may read to name the action, the minds and the resource. */
export interface AuditCall {
  auth: AuthContext;
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
  body: unknown;
  /** The handler's answer before serialization (JSON answers); undefined for streams, pages and refusals. */
  payload: unknown;
  /** Where a successful form post sends the browser (the dashboard: `/minds/<new id>`). */
  location: string | undefined;
  accessLog: AccessLogService;
}

/** How one route is audited: the action, the minds it touched (none: one account-wide row) and the resource. */
export interface AuditSpec {
  action: string | ((c: AuditCall) => string);
  minds: (c: AuditCall) => readonly string[] | Promise<readonly string[]>;
  resource?: (c: AuditCall) => string | null | undefined;
  /** Find the minds before the handler runs: the route deletes what names them (a simulation, a panel). */
  before?: true;
  /**
   * A part of a page polled while it is open (the live panel): the same read by the same actor, from
   * the same address, of the same resource and minds, within this many milliseconds of its last row
   * writes none. Its first read, and one each period while it goes on, are recorded.
   */
  coalesceMs?: number;
}

/** The refusal (403) a request was answered with: its minds are those the rows name. */
const refusals = new WeakMap<FastifyRequest, DomainError>();

/**
 * A page that answers a refusal itself (its form shown again with 403) hands the error over, as a
 * thrown one reaches the trail by its onError hook: a refused panel names every mind it would have asked.
 */
export function noteRefusal(req: FastifyRequest, err: DomainError): void {
  refusals.set(req, err);
}

/** A route option's hooks as a list (Fastify takes one function or an array). */
function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** `obj.a.b…` of an answer of unknown shape, or undefined. */
export function pick(obj: unknown, ...path: string[]): unknown {
  let v = obj;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The distinct `key` of each item of an array (e.g. the mindId of each answer). */
export function each(list: unknown, key: string): string[] {
  if (!Array.isArray(list)) return [];
  return [...new Set(list.map((x) => str(pick(x, key))).filter((x): x is string => x !== undefined))];
}

/** The distinct strings of an array (e.g. a body's mindIds). */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? [...new Set(v.filter((x): x is string => typeof x === 'string'))] : []);

/** Entry helpers: the mind named by a path parameter, none (an account-wide row), a parameter as the resource. */
export const paramMind = (c: AuditCall) => [c.params.mindId].filter((x): x is string => x !== undefined);
export const noMind = () => [];
export const param = (name: string) => (c: AuditCall) => c.params[name];

export interface AuditOptions {
  accessLog: AccessLogService;
  /** "METHOD /path" → how the route is audited; routes not in it write nothing. */
  audited: Readonly<Record<string, AuditSpec>>;
  /** A route's key in `audited` from its method and full URL (the API strips its prefix). */
  keyOf: (method: string, url: string) => string;
  /** The caller, or null (nothing is recorded for an unauthenticated request). */
  authOf: (req: FastifyRequest) => AuthContext | null;
}

/**
 * Which answers are recorded: successes (2xx, and the dashboard's 3xx after a form did its work),
 * and refusals (403: consent or tier) since a refused use is worth knowing of.
 */
const recorded = (status: number) => (status >= 200 && status < 400) || status === 403;

/**
 * The access log of a scope (the API's, the dashboard's): for each audited route, an `onSend`
 * hook awaits the row's commit before the answer leaves, so no answered read goes unrecorded;
 * when the row cannot be written the caller gets 503 `audit_unavailable` instead of the content.
 */
export const auditTrail = fastifyPlugin<AuditOptions>(
  async (app, o) => {
    const payloads = new WeakMap<FastifyRequest, unknown>();
    const early = new WeakMap<FastifyRequest, readonly string[]>();
    /** When each coalesced read was last recorded (coalesceMs), by actor, address, route, resource and minds. */
    const lastRecorded = new LRUCache<string, true>({ max: 10_000 });
    const specOf = (req: FastifyRequest) => (req.routeOptions.url === undefined ? undefined : o.audited[o.keyOf(req.method, req.routeOptions.url)]);
    const callOf = (req: FastifyRequest, auth: AuthContext, payload: unknown, location?: unknown): AuditCall => ({
      auth,
      params: (req.params ?? {}) as Record<string, string | undefined>,
      query: (req.query ?? {}) as Record<string, unknown>,
      body: req.body,
      payload,
      location: typeof location === 'string' ? location : undefined,
      accessLog: o.accessLog,
    });

    const preHandler = async (req: FastifyRequest) => {
      const spec = specOf(req);
      const auth = spec?.before ? o.authOf(req) : null;
      if (spec && auth) early.set(req, await spec.minds(callOf(req, auth, undefined)));
    };

    const preSerialization = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode < 300 && specOf(req)) payloads.set(req, payload);
      return payload;
    };

    const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const spec = specOf(req);
      const auth = spec && recorded(reply.statusCode) ? o.authOf(req) : null;
      if (!spec || !auth) return payload;
      const denied = reply.statusCode === 403;
      const c = callOf(req, auth, denied ? undefined : payloads.get(req), reply.getHeader('location'));
      const action = typeof spec.action === 'string' ? spec.action : spec.action(c);
      let records: AccessRecord[];
      try {
        const refused = denied ? refusals.get(req)?.mindIds : undefined;
        const minds = refused?.length ? refused : (early.get(req) ?? (await spec.minds(c)));
        const base = { accountId: auth.accountId, actor: actorOf(auth), action: denied ? `${action}.denied` : action, resourceId: spec.resource?.(c) ?? null, ip: req.ip };
        records = minds.length > 0 ? minds.map((mindId) => ({ ...base, mindId })) : [{ ...base, mindId: null }];
        const repeat = spec.coalesceMs ? [base.accountId, base.actor, base.ip, base.action, req.routeOptions.url, base.resourceId, ...minds].join('|') : null;
        if (repeat !== null && lastRecorded.has(repeat)) return payload;
        await o.accessLog.record(records);
        if (repeat !== null) lastRecorded.set(repeat, true, { ttl: spec.coalesceMs });
      } catch (err) {
        req.log.error({ err }, 'the access could not be recorded: the answer is withheld');
        throw new DomainError('unavailable', 'audit_unavailable', 'The access could not be recorded in the audit log, so it was not answered. Try again.');
      }
      return payload;
    };

    const onError = async (req: FastifyRequest, _reply: FastifyReply, err: Error) => {
      if (err instanceof DomainError && err.kind === 'forbidden') refusals.set(req, err);
    };

    // Only the audited routes carry the hooks: every other route (the status, the models) pays nothing for the log.
    app.addHook('onRoute', (route) => {
      if (![route.method].flat().some((m) => o.audited[o.keyOf(m, route.url)])) return;
      route.preHandler = [...hooksOf(route.preHandler), preHandler];
      route.preSerialization = [...hooksOf(route.preSerialization), preSerialization];
      route.onSend = [...hooksOf(route.onSend), onSend];
      route.onError = [...hooksOf(route.onError), onError];
    });
  },
  { name: 'mindsim-audit-trail', fastify: '5.x' },
);
