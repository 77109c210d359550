import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { errorResponses } from '../schemas.ts';
import { AuditList, AuditQuery } from '../schemas/audit.ts';
import type { HttpSettings, Services } from '../services.ts';

/** `GET /audit`: the calling account's access log, newest first, paged like the other lists (Link: rel="next"). */
export const auditRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags: ['audit'],
          summary: "The account's access log: every read of a mind's content, simulation, panel answer or export, consent change and deletion",
          description:
            'Newest first, `limit` per page (the next page in the `Link` header). Filter by `mindId`, `from` and `to` (included). ' +
            'Rows hold ids, never content, and are kept after the mind is erased; the database refuses to change them or to delete them ' +
            'before AUDIT_RETENTION_DAYS.',
          querystring: AuditQuery,
          response: { 200: AuditList, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const { limit, cursor, mindId, from, to } = req.query;
        const page = await s.accessLog.list(authOf(req), { mindId, from, to }, limit, cursor);
        const filters = Object.fromEntries(Object.entries({ mindId, from, to }).filter((e): e is [string, string] => e[1] !== undefined));
        return { entries: sendPage(reply, cfg.publicUrl, limit, page, filters) };
      },
    );
  };
