import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../domain/accounts.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const EVENTS_SHOWN = 50;

/** Integrations → Webhooks: Pro accounts only; a standard account sees why (403) and how to upgrade. */
export function webhookPages(s: Services) {
  return async (app: FastifyInstance) => {
    const events = async (auth: AuthContext) => (await s.webhooks.listEvents(auth, EVENTS_SHOWN)).items;
    const page = async (auth: AuthContext) => ({
      title: 'Webhooks',
      receiverUrl: s.webhooks.url,
      current: await s.webhooks.currentCredentials(auth.accountId),
      events: await events(auth),
    });
    const upgrade = (req: FastifyRequest, reply: FastifyReply) => render(req, reply, 'webhooks-upgrade', { title: 'Webhooks' }, 403);

    app.get('/integrations/webhooks', async (req, reply) => {
      const auth = viewerAuth(req);
      if (auth.tier !== 'pro') return upgrade(req, reply);
      return render(req, reply, 'webhooks', await page(auth));
    });

    app.post('/integrations/webhooks/credentials', async (req, reply) => {
      const auth = viewerAuth(req);
      if (auth.tier !== 'pro') return upgrade(req, reply);
      const created = await s.webhooks.createCredentials(auth.accountId);
      // Not a redirect: the password is shown on this response only.
      return render(req, reply, 'webhooks', { ...(await page(auth)), created }, 201);
    });

    /** The received events alone: polled by the page, so new ones appear without a reload. */
    app.get('/integrations/webhooks/events', async (req, reply) => {
      const auth = viewerAuth(req);
      if (auth.tier !== 'pro') {
        return reply.code(403).type('text/html; charset=utf-8').send('<p class="error">Webhooks are a Pro feature.</p>');
      }
      return render(req, reply, 'partials/events', { events: await events(auth) });
    });
  };
}
