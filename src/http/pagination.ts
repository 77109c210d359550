import type { FastifyReply } from 'fastify';
import type { Page } from '../domain/pagination.ts';

/** Lists answer a plain JSON array; the next page is announced in a `Link: <…>; rel="next"` header. */
export function sendPage<T>(reply: FastifyReply, publicUrl: string, path: string, limit: number, page: Page<T>): T[] {
  if (page.nextCursor) {
    const next = `${publicUrl}${path}?limit=${limit}&cursor=${encodeURIComponent(page.nextCursor)}`;
    reply.header('Link', `<${next}>; rel="next"`);
  }
  return page.items;
}
