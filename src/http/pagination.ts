import type { FastifyReply } from 'fastify';
import type { Page } from '../kernel/pagination.ts';

/**
 * Lists answer a plain JSON array; the next page is announced in a `Link: <…>; rel="next"` header
 * pointing at the path the request came to (so it holds under any prefix the API is served at).
 */
export function sendPage<T>(reply: FastifyReply, publicUrl: string, limit: number, page: Page<T>): T[] {
  if (page.nextCursor) {
    const path = reply.request.url.split('?')[0] ?? '';
    const next = `${publicUrl}${path}?limit=${limit}&cursor=${encodeURIComponent(page.nextCursor)}`;
    reply.header('Link', `<${next}>; rel="next"`);
  }
  return page.items;
}
