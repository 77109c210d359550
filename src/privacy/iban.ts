import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { Span } from './kinds.ts';

/**
 * IBANs: a country code, two check digits and the account (BBAN), written whole or in groups of
 * four, checked with ibantools (maintained, MIT): the country's length and BBAN format and the
 * ISO 7064 mod-97 checksum. A candidate runs as far as groups go; the longest valid prefix of
 * groups wins, so a word after the number is never taken in.
 */
const CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{1,4}){2,8}(?![A-Za-z0-9])/g;

export function findIbans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const raw = m[0];
    // Try the whole candidate first, then drop trailing groups (or characters of an unspaced one).
    for (let end = raw.length; end >= 15; end--) {
      const piece = raw.slice(0, end);
      if (/ $/.test(piece)) continue;
      const after = raw[end];
      if (after !== undefined && after !== ' ' && raw.includes(' ')) continue; // inside a group
      const compact = electronicFormatIBAN(piece);
      if (compact && isValidIBAN(compact)) {
        spans.push({ start: m.index, end: m.index + end, kind: 'iban', value: piece });
        break;
      }
    }
  }
  return spans;
}
