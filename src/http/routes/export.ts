import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_CONTENT_TYPE, exportArchive, exportDisposition } from '../export-archive.ts';
import { authOf } from '../plugins/auth.ts';
import { MindParams, errorResponses } from '../schemas.ts';
import type { Services } from '../services.ts';

/** The archive as OpenAPI shows it: bytes (application/zip). */
const ExportArchive = z.string().meta({ format: 'binary', description: 'A zip archive (application/zip) whose README.json lists and describes every other file.' });

/** A mind's data on request: one archive of everything stored about the person behind it. */
export const exportRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/minds/:mindId/export',
      {
        schema: {
          tags: ['minds'],
          summary: "Export everything stored about a mind's person as one zip archive (a data-subject access request)",
          description:
            'Streams `application/zip`: the files uploaded, each snapshot\'s parsed transcript, memories (CSV), profile, reflections and ' +
            'psychometrics, the merged profile, every simulation with its messages, every panel answer (CSV), the consent record and the ' +
            "mind's access log (CSV), with README.json describing each file (what it is, its format, how many items it holds). Every CSV " +
            "cell beginning with = + - @ is written as text. 404 for a mind that is not this account's.",
          params: MindParams,
          response: { 200: ExportArchive, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req, reply) => {
        // Opened (the mind checked, the files listed) before the first byte: an unknown mind is a JSON 404.
        const exp = await s.exports.open(authOf(req), req.params.mindId);
        reply.type(EXPORT_CONTENT_TYPE).header('content-disposition', exportDisposition(exp)).header('cache-control', 'no-store');
        return reply.send(exportArchive(exp) as never);
      },
    );
  };
