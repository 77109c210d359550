import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../http/services.ts';
import { ConsentInput } from '../../http/schemas/consent.ts';
import { fieldProblems, validationFailed } from '../../http/plugins/errors.ts';
import { viewerAuth } from '../guard.ts';
import { render } from '../render.ts';

const mindIdOf = (req: FastifyRequest) => (req.params as { mindId: string }).mindId;
const blank = (v: unknown) => (v === '' ? undefined : v);

/**
 * The consent form as a browser sends it: empty fields are absent, `scope` one checkbox value or
 * several; then checked by the API's own schema (what a granted consent needs, dates in UTC).
 */
const ConsentForm = z
  .object({
    status: z.enum(['granted', 'unknown']),
    subject: z.preprocess(blank, z.string().optional()),
    obtainedAt: z.preprocess(blank, z.string().optional()),
    method: z.preprocess(blank, z.string().optional()),
    scope: z.preprocess((v) => (v === undefined || v === '' ? undefined : [v].flat()), z.array(z.string()).optional()),
    expiresAt: z.preprocess(blank, z.string().optional()),
    evidenceArtifactId: z.preprocess(blank, z.string().optional()),
  })
  .transform((f) => (f.status === 'unknown' ? { status: 'unknown' as const } : f));

/** The mind page's consent record: set or clear it (a form), or withdraw it (after a confirmation page, like a deletion). */
export function mindConsentPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.post('/minds/:mindId/consent', async (req, reply) => {
      const auth = viewerAuth(req);
      const form = ConsentForm.safeParse(req.body ?? {});
      if (!form.success) throw validationFailed(fieldProblems(form.error.issues, 'consent'));
      const consent = ConsentInput.safeParse(form.data);
      if (!consent.success) throw validationFailed(fieldProblems(consent.error.issues, 'consent'));
      await s.minds.update(auth, mindIdOf(req), { consent: consent.data });
      return reply.redirect(`/minds/${mindIdOf(req)}#consent-title`, 303);
    });

    app.get('/minds/:mindId/consent/withdraw', async (req, reply) => {
      const auth = viewerAuth(req);
      const mind = await s.minds.get(auth, mindIdOf(req));
      const snapshots = await s.snapshots.list(auth, mind.id, 200);
      return render(req, reply, 'mind-consent-withdraw', { title: `Withdraw consent: ${mind.name}`, mind, snapshotCount: snapshots.items.length });
    });

    app.post('/minds/:mindId/consent/withdraw', async (req, reply) => {
      const auth = viewerAuth(req);
      const w = await s.minds.withdrawConsent(auth, mindIdOf(req));
      return render(req, reply, 'mind-consent-withdrawn', { title: 'Consent withdrawn', withdrawal: w });
    });
  };
}
