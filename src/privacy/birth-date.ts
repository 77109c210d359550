import type { Span } from './kinds.ts';

/**
 * Dates of birth: a date (with its day, so a year alone is not one) in a birth context: "born on",
 * "was born", "my birthday is", "date of birth", "DOB", "birth date", "b." — within a few words
 * before the date. Only the date is replaced ("I was born on [date of birth]"). A date elsewhere
 * (when a product shipped, a meeting) is not personal data of this kind and stays.
 */
const MONTH = '(?:january|february|march|april|may|june|july|august|september|october|november|december|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?)(?![a-z])';
const DAY = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?';
const YEAR = "(?:1[89]\\d\\d|20\\d\\d|'\\d\\d)";
const DATE = [
  `${MONTH}\\s+${DAY}(?:,?\\s+${YEAR})?`, // March 3rd, 1985 · March 3
  `(?:the\\s+)?${DAY}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+${YEAR})?`, // 3 March 1985 · the 3rd of March
  `\\d{4}-\\d{1,2}-\\d{1,2}`, // 1985-03-14
  `\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})`, // 03/14/1985 · 14.03.85
].join('|');
const CONTEXT = "(?:\\bborn\\b(?:\\s+(?:on|in))?|\\bbirthday\\b(?:\\s+(?:is|was|'s))?|\\bdate\\s+of\\s+birth\\b|\\bbirth\\s*date\\b|\\bd\\.?o\\.?b\\.?\\b|\\bb\\.)";
/** The context, up to 5 short words (no sentence end), then the date. */
const BIRTH_DATE = new RegExp(`${CONTEXT}(?:[\\s:,-]+(?:[a-z']{1,12}[\\s,]+){0,5}?|\\s*[:=-]?\\s*)(${DATE})(?![\\w/])`, 'gid');

export function findBirthDates(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(BIRTH_DATE)) {
    const at = m.indices?.[1];
    if (!at) continue;
    spans.push({ start: at[0], end: at[1], kind: 'dob', value: text.slice(at[0], at[1]) });
  }
  return spans;
}
