/**
 * Keys derived from names, computed here (not by SQL functions) so that SQLite and PostgreSQL
 * compare and search them identically: SQLite's lower() and LIKE fold ASCII only, PostgreSQL's
 * follow the server's locale.
 */

/** The form a name is compared and searched in: Unicode-normalised (NFKC) and lower case. */
export function foldKey(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const MAX_SLUG = 60;

/**
 * The URL-friendly form of a mind's name: ASCII letters and digits joined by hyphens, accents
 * dropped ("Ada Lovelace" → "ada-lovelace", "José Núñez" → "jose-nunez"); "mind" when nothing is left.
 */
export function slugOf(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return base || 'mind';
}

/** The first of base, base-2, base-3… not in `taken`. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
