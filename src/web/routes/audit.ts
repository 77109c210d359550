import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const PAGE = 50;
const AuditPageQuery = z.object({
  cursor: z.string().max(500).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
});

/** `key:<id>` as the key's name where the account still has it; the dashboard's `user:` as "Dashboard". */
function actorLabel(actor: string, keyNames: Map<string, string>): string {
  if (actor.startsWith('user:')) return 'Dashboard';
  if (actor.startsWith('key:')) {
    const name = keyNames.get(actor.slice(4));
    return name ? `API key “${name}”` : 'API key (revoked or unnamed)';
  }
  return actor === 'operator' ? 'Operator (admin CLI)' : actor === 'system' ? 'Scheduled job' : actor;
}

/** A mind's access log: who read, changed or deleted what of it, newest first, paged, by UTC days. */
export function auditPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/minds/:mindId/audit', async (req, reply) => {
      const auth = viewerAuth(req);
      const mind = await s.minds.get(auth, (req.params as { mindId: string }).mindId);
      const { cursor, from, to } = AuditPageQuery.parse(req.query ?? {});
      let problem: string | null = null;
      let page;
      try {
        page = await s.accessLog.list(auth, { mindId: mind.id, from, to }, PAGE, cursor);
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== 'invalid') throw err;
        problem = `${err.message} Showing every row instead.`;
        page = await s.accessLog.list(auth, { mindId: mind.id }, PAGE);
      }
      const keyNames = new Map((await s.accounts.listApiKeys(auth.accountId)).map((k) => [k.id, k.name ?? k.prefix]));
      const keep = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
      const older = page.nextCursor ? `/minds/${mind.id}/audit?${new URLSearchParams([...keep, ['cursor', page.nextCursor]]).toString()}` : null;
      return render(req, reply, 'mind-audit', {
        title: `Access log · ${mind.name}`,
        mind,
        entries: page.items.map((e) => ({ ...e, who: actorLabel(e.actor, keyNames) })),
        from: from ?? '',
        to: to ?? '',
        older,
        first: cursor === undefined,
        problem,
      });
    });
  };
}
