import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../http/services.ts';
import { fieldProblems, validationFailed } from '../../http/plugins/errors.ts';
import { REDACTION_MODES } from '../../privacy/kinds.ts';
import { viewerAuth } from '../guard.ts';

const mindIdOf = (req: FastifyRequest) => (req.params as { mindId: string }).mindId;
const RedactionForm = z.object({ redaction: z.enum(REDACTION_MODES) });

/** The mind page's redaction: off, outbound or stored (a form; applies to snapshots processed afterwards). */
export function mindRedactionPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.post('/minds/:mindId/redaction', async (req, reply) => {
      const auth = viewerAuth(req);
      const form = RedactionForm.safeParse(req.body ?? {});
      if (!form.success) throw validationFailed(fieldProblems(form.error.issues));
      await s.minds.update(auth, mindIdOf(req), { redaction: form.data.redaction });
      return reply.redirect(`/minds/${mindIdOf(req)}#redaction-title`, 303);
    });
  };
}
