import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../http/services.ts';
import { MindName } from '../../http/schemas.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const NameForm = z.object({ name: MindName });
/** `tag`: only the minds carrying it (the filter links of the list). */
const ListQuery = z.object({ cursor: z.string().max(200).optional(), tag: z.string().trim().min(1).max(100).optional() });
const PAGE = 50;

/** Minds: list (paged, filtered by a tag), create, rename, delete after a confirmation page. */
export function mindPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/minds', async (req, reply) => {
      const auth = viewerAuth(req);
      const { cursor, tag } = ListQuery.parse(req.query);
      const [page, tags] = await Promise.all([s.minds.list(auth, PAGE, cursor, tag ? [tag] : undefined), s.tags.list(auth)]);
      const more = page.nextCursor ? `/minds?${new URLSearchParams({ ...(tag ? { tag } : {}), cursor: page.nextCursor }).toString()}` : null;
      return render(req, reply, 'minds', { title: 'Minds', minds: page.items, more, tags, tag: tag ?? null });
    });

    app.post('/minds', async (req, reply) => {
      const auth = viewerAuth(req);
      const { name } = NameForm.parse(req.body ?? {});
      const { mind } = await s.minds.create(auth, name);
      return reply.redirect(`/minds/${mind.id}`, 303);
    });

    app.post('/minds/:mindId/rename', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId } = req.params as { mindId: string };
      const { name } = NameForm.parse(req.body ?? {});
      await s.minds.rename(auth, mindId, name);
      return reply.redirect(`/minds/${mindId}`, 303);
    });

    app.get('/minds/:mindId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      const mind = await s.minds.get(auth, (req.params as { mindId: string }).mindId);
      const snapshots = await s.snapshots.list(auth, mind.id, 200);
      return render(req, reply, 'mind-delete', { title: `Delete ${mind.name}`, mind, snapshotCount: snapshots.items.length });
    });

    app.post('/minds/:mindId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      await s.minds.delete(auth, (req.params as { mindId: string }).mindId);
      return reply.redirect('/minds', 303);
    });
  };
}
