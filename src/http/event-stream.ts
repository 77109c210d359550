import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../kernel/errors.ts';
import { INTERNAL_ERROR_MESSAGE } from '../kernel/error-body.ts';
import { STATUS, errorBody } from './plugins/errors.ts';

/**
 * A server-sent event stream (text/event-stream) as a reply body: Fastify sends it like any
 * stream, so the scope's hooks run as for JSON (security headers, and the usage meter once the
 * stream ends). Events are `event: <name>` and one `data:` line of JSON; writes after the client
 * went away are dropped.
 */
export class EventStream {
  private readonly body = new PassThrough();

  /** Starts the response: 200, the event-stream headers, this stream as the body. */
  open(reply: FastifyReply): FastifyReply {
    reply
      .code(200)
      .header('Content-Type', 'text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-cache, no-transform')
      .header('X-Accel-Buffering', 'no'); // nginx: pass each event on at once
    return reply.send(this.body);
  }

  send(event: string, data: unknown): void {
    if (this.body.destroyed || this.body.writableEnded) return;
    this.body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** The error as the `error` event, with the API's error body (and its HTTP status in `status`). */
  fail(err: unknown, reply: FastifyReply): void {
    const known = err instanceof DomainError;
    if (!known) reply.request.log.error({ err }, 'streamed simulation failed');
    const status = known ? STATUS[err.kind] : 500;
    const body = known
      ? errorBody(status, err.code, err.message, err.details, reply.request.id)
      : errorBody(500, 'internal_error', INTERNAL_ERROR_MESSAGE, undefined, reply.request.id);
    this.send('error', { ...body, status });
    this.end();
  }

  end(): void {
    if (!this.body.destroyed && !this.body.writableEnded) this.body.end();
  }
}
