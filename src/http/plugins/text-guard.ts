import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../kernel/errors.ts';

/** Routes whose bodies are kept as sent: a webhook's JSON payload is stored whole (as JSON, where U+0000 is escaped). */
const KEPT_AS_SENT = new Set(['/webhook']);

/**
 * Refuses text holding U+0000 (NUL) anywhere in a request's JSON or form body, query or path:
 * PostgreSQL cannot store it in a text column (SQLite can), so without this the same request would
 * be a 500 on one database and accepted on the other. A clear 400 on both, naming the field. The
 * walk is iterative (a 1 MB body may nest ~500,000 levels) and enters only plain objects and
 * arrays (never a file's bytes or stream).
 */
export function rejectNulText(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  if (KEPT_AS_SENT.has(req.routeOptions.url ?? '')) return done();
  // The path and query can only carry U+0000 percent-encoded (Node refuses a raw one in a URL): a
  // request without "%00" in its URL and without a body has nothing to walk (most reads).
  const inUrl = req.url.includes('%00');
  if (!inUrl && req.body === undefined) return done();
  const parts = [['params', req.params], ['query', req.query], ['body', req.body]] as const;
  for (const [part, value] of inUrl ? parts : parts.slice(2)) {
    const field = nulIn(value);
    if (field !== null) {
      return done(invalid('invalid_characters', `Text may not contain the NUL character (U+0000): remove it from ${part}${field}.`, { field: `${part}${field}` }));
    }
  }
  done();
}

/** A parsed object or array: JSON's, or a query or form parser's (whose objects have an empty prototype without one of its own). */
const plain = (v: object) => {
  const proto = Object.getPrototypeOf(v) as object | null;
  return Array.isArray(v) || proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
};

/** The path (".a.0.b") of the first string holding U+0000, or null. */
function nulIn(root: unknown): string | null {
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value && typeof value === 'object' && plain(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\u0000')) return `${path}.${k.split('\u0000').join('\\0')}`;
        stack.push([v, `${path}.${k}`]);
      }
    }
  }
  return null;
}
