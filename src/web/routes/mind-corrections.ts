import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_CORRECTION_NOTE, MAX_CORRECTION_TEXT } from '../../domain/correction.ts';
import { REVIEW_LINK_MAX_DAYS } from '../../domain/review-links.ts';
import type { Services } from '../../http/services.ts';
import { viewerAuth } from '../guard.ts';
import { isHtmx, render } from '../render.ts';

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const CorrectionForm = z.object({
  scenario: z.string().trim().min(1).max(MAX_CORRECTION_TEXT),
  answer: z.string().trim().min(1).max(MAX_CORRECTION_TEXT),
  note: z.preprocess(blankToUndefined, z.string().trim().max(MAX_CORRECTION_NOTE).optional()),
  simulationId: z.preprocess(blankToUndefined, z.uuid().optional()),
});
const ReviewLinkForm = z.object({ expiresInDays: z.coerce.number().int().min(1).max(REVIEW_LINK_MAX_DAYS).default(14) });
const params = (req: FastifyRequest) => req.params as { mindId: string; correctionId?: string; linkId?: string };

/**
 * The dashboard's corrections (issue 32): "Correct this answer" under every answer (the playground's
 * and a conversation's, htmx swaps in the confirmation), the mind page's list with delete, and the
 * mind's review links (made, shown once, revoked).
 */
export function mindCorrectionPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.post('/minds/:mindId/corrections', async (req, reply) => {
      const auth = viewerAuth(req);
      const correction = await s.corrections.create(auth, params(req).mindId, CorrectionForm.parse(req.body ?? {}));
      if (isHtmx(req)) return render(req, reply, 'partials/correction-saved', { correction });
      return reply.redirect(`/minds/${correction.mindId}#corrections-title`, 303);
    });

    app.post('/minds/:mindId/corrections/:correctionId/delete', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId, correctionId = '' } = params(req);
      await s.corrections.delete(auth, mindId, correctionId);
      return reply.redirect(`/minds/${mindId}#corrections-title`, 303);
    });

    /** The new link's URL is on this page only: it is never stored, so it cannot be shown again. */
    app.post('/minds/:mindId/review-links', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId } = params(req);
      const { expiresInDays } = ReviewLinkForm.parse(req.body ?? {});
      const mind = await s.minds.get(auth, mindId);
      const created = await s.reviewLinks.create(auth, mindId, { expiresInDays });
      return render(req, reply, 'review-link-created', { title: `A review link for ${mind.name}`, mind, created }, 201);
    });

    app.post('/minds/:mindId/review-links/:linkId/revoke', async (req, reply) => {
      const auth = viewerAuth(req);
      const { mindId, linkId = '' } = params(req);
      await s.reviewLinks.revoke(auth, mindId, linkId);
      return reply.redirect(`/minds/${mindId}#review-title`, 303);
    });
  };
}
