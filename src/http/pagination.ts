import type { FastifyReply } from 'fastify';
import type { Page } from '../kernel/pagination.ts';

/**
 * Answers a page's items (the route puts them in its body); the next page is announced in a
 * `Link: <…>; rel="next"` header pointing at the path the request came to (so it holds under any
 * prefix the API is served at), with the request's filters (`filters`) kept.
 */
export function sendPage<T>(reply: FastifyReply, publicUrl: string, limit: number, page: Page<T>, filters: Record<string, string> = {}): T[] {
  if (page.nextCursor) {
    const path = reply.request.url.split('?')[0] ?? '';
    const kept = Object.entries(filters).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
    const next = `${publicUrl}${path}?limit=${limit}${kept}&cursor=${encodeURIComponent(page.nextCursor)}`;
    reply.header('Link', `<${next}>; rel="next"`);
  }
  return page.items;
}
