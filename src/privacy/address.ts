import type { Span } from './kinds.ts';

/**
 * Postal addresses, the way people say and write them in English-language interviews:
 * - a street line: a house number, one to four capitalised words of street name and a street
 *   type ("221B Baker Street", "1600 Pennsylvania Ave NW"), with an optional unit ("Apt 4",
 *   "Suite 300", "#12");
 * - the European orders: a street name ending in -straße/-strasse/-weg/-gasse/-platz/-allee/-laan/
 *   -straat/-gracht/-vej/-gatan …, or "Rue/Via/Calle/Avenida … <Name>", then the number
 *   ("Hauptstraße 5", "Via Roma 10"); or the number first ("40 Lindenstraße", "12 rue de Rivoli");
 * - a P.O. box;
 * followed, when present, by the town, the state or county, and a ZIP or postcode (US, UK,
 * Canada, or a 4-5 digit code before the town: "10969 Berlin"). No maintained library finds
 * addresses inside free text (the address packages parse a string already known to be one), so
 * these patterns are written here; the benchmarks (bench/redaction.ts, bench/redaction-real.ts)
 * measure them. A street's name is written with capitals (in a text written in lower case
 * throughout, such as automatic captions, lower case is accepted too) and is never a function
 * word or a unit, so "5 miles down the road", "12 TB per drive" and "14 terabyte drive" are not
 * addresses.
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
    'tb gb mb kb pb terabyte terabytes gigabyte gigabytes megabytes gigabit gigabits degree degrees percent users episodes characters ' +
    'days weeks months years dollars euros pounds percent people way ways more less than about around some any every each one two three').split(' '),
);
const NAME_WORD = "(?:[A-Za-z][A-Za-z'’.-]*|\\d{1,3}(?:st|nd|rd|th))";
const UNIT = "(?:,?\\s*(?:apt|apartment|suite|ste|unit|flat|floor|fl|room|rm|#)\\.?\\s*#?[A-Za-z0-9-]{1,6})";
const DIRECTION = '(?:\\s+(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\\b\\.?)';
const STREET_LINE = new RegExp(
  `(?<![\\w$.,])(\\d{1,6}[A-Za-z]?(?:-\\d{1,5})?)\\s+((?:${NAME_WORD}\\s+){0,3}?${NAME_WORD})\\s+(?:${STREET_TYPES})\\b\\.?${DIRECTION}?${UNIT}?`,
  'gi',
);
/** A street name in one word, in the languages that write it so ("Lindenstraße", "Keizersgracht", "Storgatan"). */
const ONE_WORD_STREET = "[A-ZÄÖÜÅØÆ][\\p{L}-]*(?:straße|strasse|str\\.|weg|gasse|platz|allee|damm|ufer|laan|straat|gracht|kade|vej|gade|gatan|vägen|veien)";
const CONTINENTAL = new RegExp(
  `(?<![\\w])(?:${ONE_WORD_STREET}|(?:Rue|Via|Calle|Carrer|Rua|Avenida|Avenue|Chaussée|Viale|Piazza|Plaza)(?:\\s+(?:de|del|della|des|du|la|le|di|da|do)\\b)?\\s+[\\p{Lu}][\\p{Ll}][\\p{L}'-]*)\\s+\\d{1,5}[a-z]?\\b`,
  'gu',
);
/** The number first: "40 Lindenstraße", "12 rue de Rivoli", "3 avenue de la République". */
const NUMBER_FIRST = new RegExp(
  `(?<![\\w$.,])\\d{1,4}[a-zA-Z]?,?\\s+(?:${ONE_WORD_STREET}|(?:rue|avenue|boulevard|place|quai|chemin|allée|impasse|cours)(?:\\s+(?:de|du|des|la|le)\\b)*\\s+[\\p{Lu}][\\p{Ll}][\\p{L}'-]*)(?![\\p{L}])`,
  'giu',
);
/** A street line's unit and direction, taken off to read its street type. */
const UNIT_TAIL = new RegExp(`${UNIT}$`, 'i');
const DIRECTION_TAIL = new RegExp(`${DIRECTION}$`, 'i');
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

/** A street's name: no function word or unit, and capitalised words (or ordinals: "5th") unless the whole text is in lower case. */
function nameIsStreety(name: string, lowerCaseText: boolean): boolean {
  const words = name.split(/\s+/);
  if (words.some((w) => FUNCTION_WORDS.has(w.toLowerCase().replace(/[.,]$/, '')) || /[.!?]$/.test(w))) return false;
  return lowerCaseText || words.every((w) => /^\p{Lu}\p{Ll}/u.test(w) || /^\d+(?:st|nd|rd|th)$/i.test(w));
}

export function findAddresses(text: string): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => spans.push({ start, end, kind: 'address', value: text.slice(start, end) });
  const lowerCaseText = !/\p{Lu}/u.test(text.replace(/\bI\b/g, ''));
  for (const m of text.matchAll(STREET_LINE)) {
    const name = m[2] ?? '';
    if (!nameIsStreety(name, lowerCaseText)) continue;
    const type = /(\S+)\s*$/.exec(m[0].replace(UNIT_TAIL, '').replace(DIRECTION_TAIL, ''))?.[1] ?? '';
    if (!lowerCaseText && !/^\p{Lu}/u.test(type)) continue;
    // "Dr" and "St" after a name are titles or saints as often as streets: only with a capitalised name.
    if (!/[A-Z]/.test(name[0] ?? '') && /\s(?:dr|st|ct|pl|ter|cir)\.?$/i.test(m[0])) continue;
    push(m.index, withTail(text, m.index + m[0].length));
  }
  for (const m of text.matchAll(CONTINENTAL)) push(m.index, withTail(text, m.index + m[0].length));
  for (const m of text.matchAll(NUMBER_FIRST)) if (!spans.some((s) => m.index < s.end && s.start < m.index + m[0].length)) push(m.index, withTail(text, m.index + m[0].length));
  for (const m of text.matchAll(PO_BOX)) push(m.index, withTail(text, m.index + m[0].length));
  return spans.sort((a, b) => a.start - b.start);
}
