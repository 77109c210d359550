import { personalHandle } from './handles.ts';
import type { Span } from './kinds.ts';

/**
 * E-mail addresses: a local part, "@", a domain with a dot and a letters-only top-level label.
 * A regular expression is enough here (no library finds addresses inside prose better): the
 * shape is unambiguous, and the look-alikes (handles like @name, "user at host") are not matched.
 * A role's, team's or organisation's address (editors@, hello@, info@, support@, bigtent@ …:
 * handles.ts) is no one's personal data and stays.
 */
const EMAIL = /(?<![\w.%+-])[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g;

export function findEmails(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(EMAIL)) {
    if (!personalHandle(m[0].slice(0, m[0].indexOf('@')))) continue;
    spans.push({ start: m.index, end: m.index + m[0].length, kind: 'email', value: m[0] });
  }
  return spans;
}
