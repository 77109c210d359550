import { createRequire } from 'node:module';
import type { CountryCode } from 'libphonenumber-js/max';

type PhoneLibrary = typeof import('libphonenumber-js/max');
/** libphonenumber-js with its full metadata, loaded on first use (~0.1 s). */
let library: PhoneLibrary | null = null;
const phoneLibrary = (): PhoneLibrary => (library ??= createRequire(import.meta.url)('libphonenumber-js/max') as PhoneLibrary);
import type { Span } from './kinds.ts';

/**
 * Phone numbers, found by libphonenumber-js (Google's libphonenumber metadata, maintained, MIT)
 * with its full metadata: a number must be valid for its country (length and number plan), so
 * years, prices, versions and quantities are not numbers. International numbers (+44 …) are found
 * whatever the default; national ones are read as numbers of each of the default countries.
 */
export const DEFAULT_PHONE_COUNTRIES: readonly CountryCode[] = ['US', 'GB'];

export function findPhones(text: string, countries: readonly CountryCode[] = DEFAULT_PHONE_COUNTRIES): Span[] {
  if (!/\d{2}/.test(text)) return [];
  const spans: Span[] = [];
  const seen = new Set<string>();
  for (const country of countries) {
    for (const found of phoneLibrary().findPhoneNumbersInText(text, { defaultCountry: country })) {
      const key = `${found.startsAt}:${found.endsAt}`;
      if (seen.has(key)) continue;
      seen.add(key);
      spans.push({ start: found.startsAt, end: found.endsAt, kind: 'phone', value: text.slice(found.startsAt, found.endsAt) });
    }
  }
  return spans;
}
