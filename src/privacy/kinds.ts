/**
 * What the redaction stage finds (issue 25, item 2): the kinds of personal data, their
 * placeholders, and a found span of text. Values never leave this module's callers: only the
 * placeholders and the counts by kind are stored or shown.
 */

export const REDACTION_KINDS = ['email', 'phone', 'card', 'iban', 'address', 'url', 'dob', 'person'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** How a mind's personal data is handled: not at all, kept from the LLM provider, or kept from storage too. */
export const REDACTION_MODES = ['off', 'outbound', 'stored'] as const;
export type RedactionMode = (typeof REDACTION_MODES)[number];

/** How many values of each kind were replaced (kinds with none are left out). */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

/** A value found in a text: [start, end) in UTF-16 code units. `value` is for the caller's replacement only. */
export interface Span {
  start: number;
  end: number;
  kind: RedactionKind;
  value: string;
}

const LABELS: Record<Exclude<RedactionKind, 'person'>, string> = {
  email: '[email]',
  phone: '[phone]',
  card: '[card]',
  iban: '[iban]',
  address: '[address]',
  url: '[url]',
  dob: '[date of birth]',
};

/** The placeholder of a kind; a third party's carries their number within the mind (`[person 2]`). */
export function placeholder(kind: RedactionKind, personNumber?: number): string {
  return kind === 'person' ? `[person ${personNumber ?? 0}]` : LABELS[kind];
}

/** Every placeholder, as it appears in redacted text. */
export const PLACEHOLDER = /\[(email|phone|card|iban|address|url|date of birth|person \d+)\]/g;

const KIND_OF_LABEL: Record<string, RedactionKind> = {
  email: 'email',
  phone: 'phone',
  card: 'card',
  iban: 'iban',
  address: 'address',
  url: 'url',
  'date of birth': 'dob',
};

/** The placeholders in a redacted text, counted by kind (what quoted evidence says was redacted in it). */
export function countPlaceholders(text: string): RedactionCounts {
  const counts: RedactionCounts = {};
  for (const m of text.matchAll(PLACEHOLDER)) {
    const label = m[1] ?? '';
    const kind = label.startsWith('person ') ? 'person' : KIND_OF_LABEL[label];
    if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Adds `more` into `into` (in place) and returns it. */
export function addCounts(into: RedactionCounts, more: RedactionCounts): RedactionCounts {
  for (const kind of REDACTION_KINDS) {
    const n = more[kind];
    if (n) into[kind] = (into[kind] ?? 0) + n;
  }
  return into;
}

export const hasCounts = (c: RedactionCounts): boolean => REDACTION_KINDS.some((k) => (c[k] ?? 0) > 0);
