import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService, AuthContext } from '../../domain/accounts.ts';
import { DomainError } from '../../domain/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Requires `Authorization: Bearer <API key>` on every route of the scope it is registered in. */
export function requireApiKey(app: FastifyInstance, accounts: AccountService): void {
  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m?.[1]) {
      throw new DomainError('unauthorized', 'missing_api_key', 'Send your API key as "Authorization: Bearer <key>".');
    }
    const auth = await accounts.authenticate(m[1]);
    if (!auth) throw new DomainError('unauthorized', 'invalid_api_key', 'The API key is not valid or has been revoked.');
    req.auth = auth;
  });
}

export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new DomainError('unauthorized', 'missing_api_key', 'Authentication is required.');
  return req.auth;
}
