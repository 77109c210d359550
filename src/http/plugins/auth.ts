import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService, AuthContext } from '../../domain/accounts.ts';
import { DomainError } from '../../kernel/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Why the request has no `auth`, when the key was missing or wrong (thrown by `rejectUnidentified`). */
    authFailure: DomainError | null;
  }
}

/**
 * Reads `Authorization: Bearer <API key>` on every route of the scope: sets `req.auth`, or
 * `req.authFailure` without answering yet, so hooks in between (the rate limiter) still run.
 */
export function identifyApiKey(app: FastifyInstance, accounts: AccountService): void {
  // A callback hook, not an async one: a key verified moments ago is answered without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const key = m?.[1];
    if (!key) {
      req.authFailure = new DomainError('unauthorized', 'missing_api_key', 'Send your API key as "Authorization: Bearer <key>".');
      return done();
    }
    const identified = (auth: AuthContext | null) => {
      if (auth) req.auth = auth;
      else req.authFailure = new DomainError('unauthorized', 'invalid_api_key', 'The API key is not valid or has been revoked.');
    };
    const cached = accounts.verifiedKey(key);
    if (cached) {
      identified(cached);
      return done();
    }
    accounts.authenticate(key).then(
      (auth) => {
        identified(auth);
        done();
      },
      (err: unknown) => done(err as Error),
    );
  });
}

/** Answers 401 for a request `identifyApiKey` could not identify. */
export function rejectUnidentified(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    done(req.auth ? undefined : (req.authFailure ?? new DomainError('unauthorized', 'missing_api_key', 'Authentication is required.')));
  });
}

export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new DomainError('unauthorized', 'missing_api_key', 'Authentication is required.');
  return req.auth;
}
