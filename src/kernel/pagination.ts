import { invalid } from './errors.ts';

/** Keyset pagination over (created_at, id), newest first. The cursor is opaque to clients. */
export interface PageCursor {
  createdAt: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export function encodeCursor(c: PageCursor): string {
  return Buffer.from(`${c.createdAt}|${c.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(raw: string | undefined): PageCursor | null {
  if (raw === undefined || raw === '') return null;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const [createdAt, id, extra] = text.split('|');
  if (!createdAt || !id || extra !== undefined || Number.isNaN(Date.parse(createdAt))) {
    throw invalid('invalid_cursor', 'The cursor is not one this service issued.', { field: 'cursor' });
  }
  return { createdAt, id };
}

/** Given up to limit+1 rows, cut to limit and derive the next cursor from the last row's sort time. */
export const byCreatedAt = (r: { created_at: string }): string => r.created_at;

export function toPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  map: (r: R) => T,
  sortTime: (r: R) => string,
): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    nextCursor: more && last ? encodeCursor({ createdAt: sortTime(last), id: last.id }) : null,
  };
}
