import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const NewKey = z.object({ name: z.string().trim().max(100).default('') });

/** API keys: create with a name (secret shown once), list, revoke. */
export function keyPages(s: Services) {
  return async (app: FastifyInstance) => {
    const page = async (accountId: string) => ({ title: 'API keys', keys: await s.accounts.listApiKeys(accountId) });

    app.get('/keys', async (req, reply) => {
      const auth = viewerAuth(req);
      return render(req, reply, 'keys', await page(auth.accountId));
    });

    app.post('/keys', async (req, reply) => {
      const auth = viewerAuth(req);
      const { name } = NewKey.parse(req.body ?? {});
      const created = await s.accounts.createApiKey(auth.accountId, name || null);
      // Not a redirect: the secret is shown on this response only.
      return render(req, reply, 'keys', { ...(await page(auth.accountId)), created: { ...created, name } }, 201);
    });

    app.post('/keys/:keyId/revoke', async (req, reply) => {
      const auth = viewerAuth(req);
      await s.accounts.revokeOwnApiKey(auth.accountId, (req.params as { keyId: string }).keyId);
      return reply.redirect('/keys', 303);
    });
  };
}
