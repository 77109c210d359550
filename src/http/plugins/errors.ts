import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { INTERNAL_ERROR_MESSAGE, errorBody } from '../../kernel/error-body.ts';
import { DomainError, type ErrorKind } from '../../kernel/errors.ts';

export { errorBody };

export const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media_type: 415,
  unavailable: 503,
  upstream: 502,
};

/** Fastify's and its plugins' own client-error codes, in this API's words. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The request body is empty; JSON was expected.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The uploaded file is too large.' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large', message: 'The multipart request has too many parts.' },
  FST_FILES_LIMIT: { status: 400, code: 'too_many_files', message: 'Send one file per request.' },
  FST_FIELDS_LIMIT: { status: 413, code: 'payload_too_large', message: 'The multipart request has too many fields.' },
  FST_PROTO_VIOLATION: { status: 400, code: 'invalid_multipart', message: 'The multipart body is malformed.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request must be multipart/form-data.',
  },
};

/** Sends the error body with the request's id. */
export const sendError = (reply: FastifyReply, status: number, code: string, message: string, details?: Record<string, unknown>) =>
  reply.code(status).send(errorBody(status, code, message, details, reply.request.id));

/** A field of a request that failed validation: its dotted path (`body.scenario.message`) and why. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** Zod issues as field problems, under a prefix (`body`, `querystring`…) when given; `whole` names an issue of the whole input. */
export const fieldProblems = (
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  prefix?: string,
  whole = 'body',
): FieldProblem[] => issues.map((i) => ({ field: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || whole, message: i.message }));

/** The one `validation_failed` error of the API (schema validation, and forms a route reads itself). */
export const validationFailed = (fields: readonly FieldProblem[]): DomainError =>
  new DomainError('invalid', 'validation_failed', `Invalid request: check ${[...new Set(fields.map((f) => f.field))].join(', ')}.`, { fields });

const snake = (s: string) => s.replace(/^FST_(ERR_)?/, '').toLowerCase();

/** One error body everywhere (errorBody). Client errors never become 500s. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof DomainError) {
      if (err.kind === 'unauthorized' && !reply.hasHeader('www-authenticate')) reply.header('WWW-Authenticate', 'Bearer');
      return sendError(reply, STATUS[err.kind], err.code, err.message, err.details);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({ path: v.instancePath.split('/').filter(Boolean), message: v.message ?? 'invalid' }));
      const failed = validationFailed(fieldProblems(issues, err.validationContext));
      return sendError(reply, 400, failed.code, failed.message, failed.details);
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.message ?? err.message);
    if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
      return sendError(reply, 400, 'invalid_json', 'The request body is not valid JSON.');
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, err.code ? snake(err.code) : 'bad_request', err.message);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', INTERNAL_ERROR_MESSAGE);
  });

  app.setNotFoundHandler((req, reply) => {
    sendError(reply, 404, 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}.`);
  });
}

/**
 * Fastify's router errors (a malformed percent-encoding, a path segment over maxParamLength),
 * answered before any route or hook: the same error body as everywhere else.
 */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply.header('X-Content-Type-Options', 'nosniff');
  if (tooLong) sendError(reply, 414, 'path_too_long', 'A part of the path is too long.');
  else sendError(reply, 400, 'bad_url', 'The path is not a valid URL.');
}

/**
 * Requests Node's HTTP parser refuses (headers or request line over the size limit, malformed
 * HTTP, a request that took too long): the error body, written on the socket since no request
 * object exists, then the connection closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request line and headers are too large.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive.']
        : [400, 'bad_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify(errorBody(status, code, message));
  if (!socket.writable) return void socket.destroy(err);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroySoon();
}
