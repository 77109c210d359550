/** Review links of a mind (issue 32, item 5): `/minds/{mindId}/review-links`. */
import { z } from 'zod';
import { REVIEW_LINK_DEFAULT_DAYS, REVIEW_LINK_MAX_DAYS } from '../../domain/review-links.ts';
import { Id, Timestamp } from '../schemas.ts';

export const ReviewLinkParams = z.object({ mindId: Id, linkId: Id });

export const ReviewLink = z
  .object({
    id: Id,
    mindId: Id,
    status: z.enum(['active', 'expired', 'revoked']).describe('Whether the link opens now: `expired` after expiresAt, `revoked` once revoked'),
    expiresAt: Timestamp,
    revokedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'ReviewLink' });

export const CreateReviewLinkBody = z.object({
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(REVIEW_LINK_MAX_DAYS)
      .optional()
      .describe(`How many days the link opens, 1–${REVIEW_LINK_MAX_DAYS} (default ${REVIEW_LINK_DEFAULT_DAYS})`),
});
/** The body may be left out: a link for the default period. */
export const CreateReviewLink = CreateReviewLinkBody.default({});

export const CreatedReviewLink = z.object({
  reviewLink: ReviewLink,
  url: z.string().describe('The link to give the person: shown this once (only a hash of its token is stored)'),
});

export const ReviewLinkList = z.object({ reviewLinks: z.array(ReviewLink).describe('Newest first (at most 200)') });

export const ReviewLinkEnvelope = z.object({ reviewLink: ReviewLink });
