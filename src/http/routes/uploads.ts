import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { DomainError } from '../../kernel/errors.ts';
import { authOf } from '../plugins/auth.ts';
import { MindParams, SignedUrlQuery, SignedUrlResponse, UploadParams, UploadQuery, UploadResponse, errorResponses } from '../schemas.ts';
import type { Services } from '../services.ts';

/** `GET /minds/{mindId}/signed-url`, inside the authenticated API scope. */
export const signedUrlRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/minds/:mindId/signed-url',
      {
        schema: {
          tags: ['uploads'],
          summary: 'Get a one-time signed URL to upload a transcript (PUT the raw bytes to it)',
          params: MindParams,
          querystring: SignedUrlQuery,
          response: { 200: SignedUrlResponse, ...errorResponses(400, 401, 404) },
        },
      },
      (req) => s.uploads.createSignedUrl(authOf(req), req.params.mindId, req.query),
    );
  };

/**
 * `PUT /uploads/{artifactId}?expires&signature`: no API key, any Content-Type. The body is
 * streamed to the blob store, never buffered; the signature and size are checked first.
 */
export const uploadReceiverRoutes =
  (s: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));

    app.put(
      '/uploads/:artifactId',
      {
        schema: {
          tags: ['uploads'],
          summary: 'Upload target of a signed URL (raw bytes, at most 50 MB)',
          params: UploadParams,
          querystring: UploadQuery,
          response: { 200: UploadResponse, ...errorResponses(400, 403, 404, 409, 410, 413) },
        },
      },
      async (req, reply) => {
        const raw = req.raw;
        const length = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
        const { artifactId } = req.params;
        try {
          await s.uploads.authorize(artifactId, req.query.expires, req.query.signature, length);
        } catch (err) {
          reply.header('Connection', 'close');
          throw err;
        }
        // Feed the store through a PassThrough so a rejected upload can leave the socket readable
        // (drained) and the client still gets its 413 instead of a reset connection.
        const body = new PassThrough();
        raw.pipe(body);
        // An interrupted upload ends the store's stream too, so the blob is discarded and the URL
        // can be used again (the artifact goes back to awaiting_upload).
        const aborted = new Promise<never>((_, reject) =>
          raw.once('aborted', () => {
            const err = new DomainError('invalid', 'upload_incomplete', 'The upload was interrupted.');
            body.destroy(err);
            reject(err);
          }),
        );
        try {
          const contentType = req.headers['content-type'] ?? null;
          return await Promise.race([s.uploads.receive(artifactId, body, contentType), aborted]);
        } catch (err) {
          raw.unpipe(body);
          raw.resume();
          reply.header('Connection', 'close');
          throw err;
        }
      },
    );
  };
