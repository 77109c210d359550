import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../plugins/auth.ts';
import { errorResponses } from '../schemas.ts';
import { AccountPrivacy, AccountPrivacyUpdate } from '../schemas/consent.ts';
import type { Services } from '../services.ts';

/** The account's own settings: its privacy settings (issue 25). */
export const accountRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['account'];
    app.get(
      '/account/privacy',
      {
        schema: {
          tags,
          summary: "The account's privacy settings: whether consent on record is required, how long transcripts and simulations are kept",
          response: { 200: AccountPrivacy, ...errorResponses(401) },
        },
      },
      (req) => s.privacy.get(authOf(req)),
    );

    app.put(
      '/account/privacy',
      {
        schema: {
          tags,
          summary: 'Change the privacy settings given (requireConsent, retentionDays)',
          body: AccountPrivacyUpdate,
          response: { 200: AccountPrivacy, ...errorResponses(400, 401) },
        },
      },
      (req) => s.privacy.update(authOf(req), req.body),
    );
  };
