import path from 'node:path';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';

const eta = new Eta({ views: path.join(import.meta.dirname, 'views'), cache: true });

export const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';

/** Helpers every template may call (as `it.fmt.*`). */
const fmt = {
  /** "2026-11-22 03:28 UTC" from an ISO time; "—" for none. */
  time: (iso: string | null | undefined) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—'),
  /** "1:02:03" / "2:03" from seconds. */
  clock: (s: number | null | undefined) => {
    if (s === null || s === undefined) return '';
    const t = Math.floor(s);
    const hh = Math.floor(t / 3600);
    const mm = Math.floor((t % 3600) / 60);
    const ss = String(t % 60).padStart(2, '0');
    return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
  },
  percent: (x: number) => `${Math.round(x * 100)}%`,
  json: (v: unknown) => JSON.stringify(v, null, 2),
};

/** Renders a template with what every page needs: the viewer, a CSRF token and the formatters. */
export function render(req: FastifyRequest, reply: FastifyReply, view: string, data: Record<string, unknown> = {}, status = 200) {
  const html = eta.render(view, { viewer: req.viewer, csrf: reply.generateCsrf(), path: req.url.split('?')[0], fmt, ...data });
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}
