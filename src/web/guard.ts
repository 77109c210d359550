import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { AuthContext } from '../domain/accounts.ts';
import { errorBody } from '../kernel/error-body.ts';
import { DomainError } from '../kernel/errors.ts';
import type { Account } from '../domain/logins.ts';
import { fieldProblems, STATUS } from '../http/plugins/errors.ts';
import type { Services } from '../http/services.ts';
import { isHtmx, render } from './render.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in account of a dashboard request, or null. */
    viewer: Account | null;
  }
}

/** Loads the session's account (one read per page request); a deleted account logs the session out. */
export function attachViewer(s: Services) {
  return async (req: FastifyRequest) => {
    req.viewer = null;
    const id = req.session.accountId;
    if (!id) return;
    req.viewer = await s.logins.account(id);
    if (!req.viewer) await req.session.destroy();
  };
}

/** The logged-in account as the domain services know a caller; sends to the log-in page otherwise. */
export function viewerAuth(req: FastifyRequest): AuthContext {
  if (!req.viewer) throw new LoginRequired();
  return { accountId: req.viewer.id, tier: req.viewer.tier, apiKeyId: null };
}

export class LoginRequired extends Error {}

const wantsJson = (req: FastifyRequest) => (req.headers.accept ?? '').includes('application/json');

function sendError(req: FastifyRequest, reply: FastifyReply, status: number, code: string, message: string, details?: Record<string, unknown>) {
  if (wantsJson(req)) return reply.code(status).send(errorBody(status, code, message, details, req.id));
  if (isHtmx(req)) return render(req, reply, 'partials/error', { message }, status);
  return render(req, reply, 'error', { title: 'Something went wrong', status, message }, status);
}

/** Errors on pages become a readable page (or fragment, or JSON for the upload script), never a 500 for a client's mistake. */
export function registerPageErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof LoginRequired) {
      if (isHtmx(req)) return reply.code(401).header('HX-Redirect', '/login').send();
      if (req.method === 'GET') return reply.redirect(`/login?next=${encodeURIComponent(req.url)}`);
      return sendError(req, reply, 401, 'login_required', 'Your session has ended. Log in again.');
    }
    if (err instanceof ZodError) {
      const fields = [...new Set(fieldProblems(err.issues, undefined, 'form').map((f) => f.field))].join(', ');
      return sendError(req, reply, 400, 'invalid_form', `Check the form: ${fields}.`);
    }
    if (err instanceof DomainError) return sendError(req, reply, STATUS[err.kind], err.code, err.message, err.details);
    if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET') {
      return sendError(req, reply, 403, 'csrf_rejected', 'This form has expired or did not come from this site. Reload the page and try again.');
    }
    if (err.statusCode === 429) return sendError(req, reply, 429, 'rate_limited', err.message);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(req, reply, err.statusCode, 'bad_request', err.message);
    }
    req.log.error({ err }, 'page failed');
    return sendError(req, reply, 500, 'internal', 'Something went wrong on our side. Try again.');
  });
}
