import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors.ts';
import { checkJsonDepth, MAX_JSON_DEPTH, notJson } from '../../kernel/json-text.ts';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { PageQuery, WebhookEvent, WebhookReceived, errorResponses } from '../schemas.ts';
import type { HttpSettings, Services } from '../services.ts';

/** `POST /webhook`: HTTP Basic, JSON only, Pro tier only. The body is kept as the exact JSON text sent. */
export const webhookReceiverRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeAllContentTypeParsers();
    // Any JSON is kept as sent (a "__proto__" key too: it is stored as text), nested at most MAX_JSON_DEPTH levels, checked before parsing.
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: cfg.maxWebhookBytes }, (_req, body, done) => {
      try {
        checkJsonDepth(body as string);
        JSON.parse(body as string);
      } catch (err) {
        return done(err instanceof DomainError ? err : notJson());
      }
      done(null, body);
    });
    app.addContentTypeParser('*', (_req, _payload, done) =>
      done(new DomainError('unsupported_media_type', 'unsupported_media_type', 'Send the webhook body as Content-Type: application/json.')),
    );

    app.post(
      '/webhook',
      {
        bodyLimit: cfg.maxWebhookBytes,
        schema: {
          tags: ['webhooks'],
          summary: `Inbound webhook: any JSON (at most 1 MB, nested at most ${MAX_JSON_DEPTH} levels), HTTP Basic credentials, Pro tier`,
          response: { 200: WebhookReceived, ...errorResponses(400, 401, 403, 413, 415) },
        },
        // Credentials are checked before the body is read or parsed.
        onRequest: async (req, reply) => {
          try {
            (req as { webhookAccount?: string }).webhookAccount = await s.webhooks.authorize(req.headers.authorization);
          } catch (err) {
            if (err instanceof DomainError && err.kind === 'unauthorized') reply.header('WWW-Authenticate', 'Basic realm="webhook"');
            throw err;
          }
        },
      },
      async (req) => {
        const accountId = (req as { webhookAccount?: string }).webhookAccount;
        if (!accountId) throw new DomainError('unauthorized', 'invalid_credentials', 'Webhook credentials are missing or wrong.');
        if (typeof req.body !== 'string') {
          throw new DomainError('unsupported_media_type', 'unsupported_media_type', 'Send the webhook body as Content-Type: application/json.');
        }
        return s.webhooks.receive(accountId, req.body);
      },
    );
  };

/** `GET /webhook-events`, inside the authenticated API scope. */
export const webhookEventRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/webhook-events',
      {
        schema: {
          tags: ['webhooks'],
          summary: "The account's received webhook events, newest first",
          querystring: PageQuery,
          response: { 200: z.array(WebhookEvent), ...errorResponses(400, 401) },
        },
      },
      async (req, reply) => {
        const page = await s.webhooks.listEvents(authOf(req), req.query.limit, req.query.cursor);
        return sendPage(reply, cfg.publicUrl, req.query.limit, page);
      },
    );
  };
