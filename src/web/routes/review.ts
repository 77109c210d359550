import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_CORRECTION_NOTE, MAX_CORRECTION_TEXT } from '../../domain/correction.ts';
import type { Services } from '../../http/services.ts';
import { DomainError } from '../../kernel/errors.ts';
import { render } from '../render.ts';

const ReviewParams = z.object({ token: z.string().max(200) });
const AnswerParams = ReviewParams.extend({ simulationId: z.uuid() });
/** `?done=confirmed|corrected&answer=<simulationId>`: what the person just did, said on the page. */
const ReviewQuery = z.object({ done: z.enum(['confirmed', 'corrected']).optional().catch(undefined), answer: z.uuid().optional().catch(undefined) });
const CorrectionForm = z.object({
  answer: z.string().trim().min(1, 'Write what you would say.').max(MAX_CORRECTION_TEXT),
  note: z.string().trim().max(MAX_CORRECTION_NOTE).optional().transform((v) => (v ? v : undefined)),
});

/** A closed link (unknown 404, expired or revoked 410) or a refused correction (403: consent) as a page the person can read: nothing else of the account. */
async function closed<T>(req: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'forbidden') {
      return render(req, reply, 'review-closed', { title: 'Your answer could not be saved', message: `${err.message} Nothing was changed; the people who sent you this link can tell you more.` }, 403);
    }
    if (!(err instanceof DomainError) || (err.kind !== 'not_found' && err.kind !== 'gone')) throw err;
    const unknown = err.code === 'review_link_not_found';
    const title = unknown ? 'This review link does not exist' : err.code.startsWith('review_link_') ? 'This review link no longer opens' : 'Not found';
    return render(req, reply, 'review-closed', { title, message: unknown ? 'Check that the whole link was copied, or ask the people who sent it for a new one.' : err.message }, err.kind === 'gone' ? 410 : 404);
  }
}

/**
 * The person's review page (`/review/<token>`, issue 32 item 5): no account and no session, only
 * the link's token. It shows that mind's recent answers, each with "This is what I would say"
 * (confirm) and a form to write what they would really say (a correction of the mind by
 * `review-link:<id>`). Every read and action is in the account's access log under that actor.
 */
export function reviewPages(s: Services) {
  return async (app: FastifyInstance) => {
    app.get('/review/:token', async (req, reply) => {
      const { token } = ReviewParams.parse(req.params);
      const { done, answer } = ReviewQuery.parse(req.query ?? {});
      return closed(req, reply, async () => {
        const open = await s.reviewLinks.open(token);
        const answers = await s.reviewLinks.answers(open, req.ip);
        return render(req, reply, 'review', { title: `Review ${open.mindName}’s answers`, mindName: open.mindName, link: open.link, answers, token, done, doneAnswer: answer });
      });
    });

    app.post('/review/:token/answers/:simulationId/confirm', async (req, reply) => {
      const { token, simulationId } = AnswerParams.parse(req.params);
      return closed(req, reply, async () => {
        await s.reviewLinks.confirm(await s.reviewLinks.open(token), simulationId, req.ip);
        return reply.redirect(`/review/${token}?done=confirmed&answer=${simulationId}#answer-${simulationId}`, 303);
      });
    });

    app.post('/review/:token/answers/:simulationId/correct', async (req, reply) => {
      const { token, simulationId } = AnswerParams.parse(req.params);
      const form = CorrectionForm.parse(req.body ?? {});
      return closed(req, reply, async () => {
        await s.reviewLinks.correct(await s.reviewLinks.open(token), simulationId, form, req.ip);
        return reply.redirect(`/review/${token}?done=corrected&answer=${simulationId}#answer-${simulationId}`, 303);
      });
    });
  };
}
