import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { MindParams, errorResponses } from '../schemas.ts';
import { CreateReviewLink, CreatedReviewLink, ReviewLinkEnvelope, ReviewLinkList, ReviewLinkParams } from '../schemas/review-links.ts';
import type { Services } from '../services.ts';

/** Review links: the person behind a mind reads its recent answers and confirms or corrects them, without an account (issue 32). */
export const reviewLinkRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['corrections'];
    app.post(
      '/minds/:mindId/review-links',
      {
        schema: {
          tags,
          summary: 'Make a review link for the person behind the mind',
          description:
            "Through the link (`url`, shown only in this answer) the person reads the mind's recent answers and confirms or corrects them without an account; each correction is a correction of the mind by `review-link:<id>`. The link shows that mind's answers and nothing else of the account. It expires after `expiresInDays` (default 14) and can be revoked.",
          params: MindParams,
          body: CreateReviewLink,
          response: { 201: CreatedReviewLink, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req, reply) => reply.code(201).send(await s.reviewLinks.create(authOf(req), req.params.mindId, req.body)),
    );

    app.get(
      '/minds/:mindId/review-links',
      {
        schema: {
          tags,
          summary: "List the mind's review links, newest first (without their tokens)",
          params: MindParams,
          response: { 200: ReviewLinkList, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req) => ({ reviewLinks: await s.reviewLinks.list(authOf(req), req.params.mindId) }),
    );

    app.delete(
      '/minds/:mindId/review-links/:linkId',
      {
        schema: {
          tags,
          summary: 'Revoke a review link: it stops opening at once (410 for the person)',
          params: ReviewLinkParams,
          response: { 200: ReviewLinkEnvelope, ...errorResponses(400, 401, 404, 410) },
        },
      },
      async (req) => ({ reviewLink: await s.reviewLinks.revoke(authOf(req), req.params.mindId, req.params.linkId) }),
    );
  };
