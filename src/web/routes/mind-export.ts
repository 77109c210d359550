import type { FastifyInstance } from 'fastify';
import { EXPORT_CONTENT_TYPE, exportArchive, exportDisposition } from '../../http/export-archive.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';

/**
 * The mind page's download of everything stored about its person: the same archive as
 * GET /api/public/v1/minds/{id}/export (one writer, http/export-archive.ts), for the session's account.
 */
export function mindExportPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/minds/:mindId/export', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId } = req.params as { mindId: string };
      // Opened before the first byte: another account's or an unknown mind is the dashboard's 404 page.
      const exp = await s.exports.open(auth, mindId);
      reply.type(EXPORT_CONTENT_TYPE).header('content-disposition', exportDisposition(exp)).header('cache-control', 'no-store');
      return reply.send(exportArchive(exp));
    });
  };
}
