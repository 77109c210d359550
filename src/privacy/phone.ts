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
 * whatever the default; national ones are read as numbers of each of the default countries. A
 * number the metadata does not know as allocated is still taken when it is written as a phone
 * number is: with its "+" country code, an area code in parentheses, or a trunk "0" and grouping
 * ("07911 455482"): it is someone's number to whoever said it, allocated or not.
 *
 * Not a person's number, and left: a business line by its number plan (toll-free such as
 * 1-888-…, premium-rate, shared-cost: libphonenumber's type), and digits that are part of something
 * else: a dotted or longer run of digits around it (a version "2024.06.2021", a tweet's or an
 * order's id), digits inside a web address (twitter.com/…/status/1234567890), or a number named as a version, build, id, issue, order, port … just before it.
 */
/** Number plans of businesses, not people. */
const BUSINESS_TYPES = new Set(['TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'UAN']);
/** Words that name what a number is when it is no phone number, said just before it. */
const NOT_A_PHONE_BEFORE = /\b(?:version|v|release|build|id|ids|tweet|status|issue|issues|ticket|order|invoice|pr|pull request|commit|serial|port|episode|case|number of|isbn)\s*#?:?\s*$/i;
/** Written as a phone number: "+…", "(…)…", or a trunk 0 with groups. */
const PHONE_WRITTEN = /^(?:\+\d|\(\d{2,5}\)|0\d{2,5}[ -]\d)/;

export const DEFAULT_PHONE_COUNTRIES: readonly CountryCode[] = ['US', 'GB'];

export function findPhones(text: string, countries: readonly CountryCode[] = DEFAULT_PHONE_COUNTRIES): Span[] {
  // A phone number has at least seven digits: most texts need no look at all.
  if ((text.match(/\d/g)?.length ?? 0) < 7) return [];
  const writtenLikeOne = /\+\d|\(\d|(?<![\d.,])0\d/.test(text);
  // libphonenumber reads ", 212…" after a number as its extension (a comma is a dialling pause): a list of numbers is read as one.
  // A comma before a space becomes a mark of the same length that ends a number (offsets unchanged).
  const scanned = text.replace(/,(?=\s)/g, '!');
  const spans: Span[] = [];
  const seen = new Set<string>();
  for (const country of countries) {
    for (const extended of writtenLikeOne ? [false, true] : [false]) {
      for (const found of phoneLibrary().findPhoneNumbersInText(scanned, { defaultCountry: country, extended })) {
        const key = `${found.startsAt}:${found.endsAt}`;
        const value = text.slice(found.startsAt, found.endsAt);
        // Written like a phone number, one number (no list), and not a longer reading of one found valid.
        if (seen.has(key) || (extended && (!PHONE_WRITTEN.test(value) || /,/.test(value) || spans.some((s) => found.startsAt < s.end && s.start < found.endsAt)))) continue;
        seen.add(key);
        if (partOfSomethingElse(text, found.startsAt, found.endsAt)) continue;
        const type = found.number.getType();
        if (type !== undefined && BUSINESS_TYPES.has(type)) continue;
        spans.push({ start: found.startsAt, end: found.endsAt, kind: 'phone', value });
      }
    }
  }
  return spans;
}

/** How far back the word naming a number is read ("pull request #", "number of "). */
const NAMED_BEFORE_CHARS = 24;

/** A run without spaces that is a web address: digits in it are part of the address. */
const IN_WEB_ADDRESS = /(?:[a-z][a-z+.-]*:\/\/|www\.|[\p{L}\d-]\.[a-z]{2,}\/)/iu;

/** Digits that belong to a longer token (a dotted version, a long id) or are named as something else. */
function partOfSomethingElse(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - NAMED_BEFORE_CHARS), start);
  const after = text.slice(end, end + 2);
  if (/[\d][.,/:]?$|[.]$/.test(before) || /^[.,/:]?\d/.test(after)) return true;
  if (/^\d{4}\.\d{1,2}\.\d+$/.test(text.slice(start, end))) return true;
  if (IN_WEB_ADDRESS.test(`${/\S*$/.exec(text.slice(0, start))?.[0] ?? ''}${/^\S*/.exec(text.slice(end))?.[0] ?? ''}`)) return true;
  return NOT_A_PHONE_BEFORE.test(before);
}
