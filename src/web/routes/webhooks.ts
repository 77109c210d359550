import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const EVENTS_SHOWN = 50;

/** Integrations → Webhooks: Pro accounts only; a standard account sees why (403) and how to upgrade. */
export function webhookPages(s: Services) {
  return async (app: FastifyInstance) => {
    const proOnly = async (req: FastifyRequest) => {
      const auth = viewerAuth(req);
      return { auth, pro: auth.tier === 'pro' };
    };

    const page = async (req: FastifyRequest, accountId: string) => ({
      title: 'Webhooks',
      receiverUrl: s.webhooks.url,
      current: await s.webhooks.currentCredentials(accountId),
      events: (await s.webhooks.listEvents(viewerAuth(req), EVENTS_SHOWN)).items,
    });

    app.get('/integrations/webhooks', async (req, reply) => {
      const { auth, pro } = await proOnly(req);
      if (!pro) return render(req, reply, 'webhooks-upgrade', { title: 'Webhooks' }, 403);
      return render(req, reply, 'webhooks', await page(req, auth.accountId));
    });

    app.post('/integrations/webhooks/credentials', async (req, reply) => {
      const { auth, pro } = await proOnly(req);
      if (!pro) return render(req, reply, 'webhooks-upgrade', { title: 'Webhooks' }, 403);
      const created = await s.webhooks.createCredentials(auth.accountId);
      // Not a redirect: the password is shown on this response only.
      return render(req, reply, 'webhooks', { ...(await page(req, auth.accountId)), created }, 201);
    });

    /** The received events alone: polled by the page, so new ones appear without a reload. */
    app.get('/integrations/webhooks/events', async (req, reply) => {
      const { pro } = await proOnly(req);
      if (!pro) return reply.code(403).type('text/html; charset=utf-8').send('<p class="error">Webhooks are a Pro feature.</p>');
      const events = (await s.webhooks.listEvents(viewerAuth(req), EVENTS_SHOWN)).items;
      return render(req, reply, 'partials/events', { events });
    });
  };
}
