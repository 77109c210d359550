import type { Span } from './kinds.ts';

/**
 * Postal addresses, the way people say and write them in English-language interviews:
 * - a street line: a house number, one to four words of street name and a street type
 *   ("221B Baker Street", "1600 Pennsylvania Ave NW", "12 rue de Rivoli" is left to the
 *   continental form below), with an optional unit ("Apt 4", "Suite 300", "#12");
 * - the continental order: a street name ending in -straße/-strasse/-weg/-gasse/-platz/-laan/
 *   -straat/-vej/-gatan, or "rue/via/calle/avenida <name>", then the number ("Hauptstraße 5");
 * - a P.O. box;
 * followed, when present, by the town, the state or county, and a ZIP or postcode (US, UK,
 * Canada, or a 4-5 digit code before the town). No maintained library finds addresses inside
 * free text (the address packages parse a string already known to be one), so these patterns are
 * written here; the benchmark (bench/redaction.ts) measures them. Street-name words are never
 * function words, so "5 miles down the road" is not an address.
 */
const STREET_TYPES = [
  'street', 'st', 'avenue', 'ave', 'av', 'road', 'rd', 'boulevard', 'blvd', 'lane', 'ln', 'drive', 'dr', 'court', 'ct', 'place', 'pl',
  'way', 'terrace', 'ter', 'circle', 'cir', 'parkway', 'pkwy', 'highway', 'hwy', 'square', 'sq', 'crescent', 'cres', 'close', 'grove',
  'gardens', 'mews', 'row', 'walk', 'hill', 'trail', 'trl', 'alley', 'plaza', 'pike', 'loop', 'crossing', 'park', 'green',
].join('|');
/** Words that are never part of a street's name. */
const FUNCTION_WORDS = new Set(
  ('the a an of to in on at by for from with and or but down up over into onto off out my your his her our their its this that these those ' +
    'is was are were be been am i you he she we they it me him us them miles mile km kilometres kilometers blocks block times minutes hours ' +
    'days weeks months years dollars euros pounds percent people way ways more less than about around some any every each one two three').split(' '),
);
const NAME_WORD = "[A-Za-z][A-Za-z'’.-]*";
const UNIT = "(?:,?\\s*(?:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|#)\\.?\\s*#?[A-Za-z0-9-]{1,6})";
const DIRECTION = '(?:\\s+(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\\b\\.?)';
const STREET_LINE = new RegExp(
  `(?<![\\w$.,])(\\d{1,6}[A-Za-z]?(?:-\\d{1,5})?)\\s+((?:${NAME_WORD}\\s+){0,3}?${NAME_WORD})\\s+(?:${STREET_TYPES})\\b\\.?${DIRECTION}?${UNIT}?`,
  'gi',
);
const CONTINENTAL = new RegExp(
  `(?<![\\w])(?:[A-ZÄÖÜ][\\p{L}-]*(?:straße|strasse|str\\.|weg|gasse|platz|allee|laan|straat|gracht|vej|gade|gatan|vägen)|(?:rue|via|calle|avenida|avenue|chaussée|viale|piazza|plaza)(?:\\s+(?:de|del|della|des|du|la|le|di)\\b)?\\s+[\\p{Lu}][\\p{L}'-]+)\\s+\\d{1,5}[a-z]?\\b`,
  'gu',
);
const PO_BOX = /\bP\.?\s?O\.?\s+Box\s+\d{1,7}\b/gi;

/** What may follow a street line: ", Springfield, IL 62704", ", London SW1A 1AA", ", 10115 Berlin". */
const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';
const UK_POSTCODE = '[A-Z]{1,2}\\d[A-Z\\d]?\\s?\\d[A-Z]{2}';
const CA_POSTCODE = '[A-Z]\\d[A-Z]\\s?\\d[A-Z]\\d';
const TOWN = "[\\p{Lu}][\\p{L}'.-]+(?:\\s+[\\p{Lu}][\\p{L}'.-]+){0,2}";
/** A word ends here (no letter or digit follows). */
const END = '(?![\\p{L}\\p{N}])';
const TAIL = new RegExp(
  `^(?:,?\\s+(?:\\d{4,5}\\s+)?${TOWN}${END})?(?:,?\\s+(?:${US_STATES}|[\\p{Lu}][\\p{L}]+(?:\\s+[\\p{Lu}][\\p{L}]+)?)${END})?(?:,?\\s+(?:\\d{5}(?:-\\d{4})?|${UK_POSTCODE}|${CA_POSTCODE})${END})?`,
  'u',
);
/** A tail must end in a postcode, a state, or a capitalised town: it never swallows a following sentence's words. */
const TAIL_END = new RegExp(`(?:\\d{5}(?:-\\d{4})?|${UK_POSTCODE}|${CA_POSTCODE}|\\b(?:${US_STATES})|[\\p{Lu}][\\p{L}'.-]+)$`, 'u');
/** Capitalised words that begin a new clause rather than name a town. */
const NOT_TOWNS = new Set(['I', 'And', 'But', 'So', 'Then', 'The', 'It', 'We', 'They', 'He', 'She', 'That', 'This', 'Which', 'When', 'Where', 'Because', 'My']);

function withTail(text: string, end: number): number {
  const rest = text.slice(end, end + 80);
  const m = TAIL.exec(rest);
  if (!m || m[0].length === 0) return end;
  let tail = m[0];
  // Drop a trailing word that starts a clause, and anything not ending as a tail should.
  const words = tail.split(/(\s+|,)/);
  while (words.length > 0) {
    const last = (words.at(-1) ?? '').trim();
    if (last === '' || last === ',') {
      words.pop();
      continue;
    }
    if (NOT_TOWNS.has(last) || !TAIL_END.test(last)) {
      words.pop();
      continue;
    }
    break;
  }
  tail = words.join('').replace(/[.,]+$/, '');
  // A tail must not begin a new sentence: the first word after a full stop is not a town.
  return end + tail.length;
}

function nameIsStreety(name: string): boolean {
  const words = name.split(/\s+/);
  return words.every((w) => !FUNCTION_WORDS.has(w.toLowerCase()));
}

export function findAddresses(text: string): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => spans.push({ start, end, kind: 'address', value: text.slice(start, end) });
  for (const m of text.matchAll(STREET_LINE)) {
    const name = m[2] ?? '';
    if (!nameIsStreety(name)) continue;
    // "Dr" and "St" after a name are titles or saints as often as streets: only with a capitalised name.
    if (!/[A-Z]/.test(name[0] ?? '') && /\s(?:dr|st|ct|pl|ter|cir)\.?$/i.test(m[0])) continue;
    push(m.index, withTail(text, m.index + m[0].length));
  }
  for (const m of text.matchAll(CONTINENTAL)) push(m.index, withTail(text, m.index + m[0].length));
  for (const m of text.matchAll(PO_BOX)) push(m.index, withTail(text, m.index + m[0].length));
  return spans;
}
