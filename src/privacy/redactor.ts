/**
 * Replaces what detection found with placeholders, a third party with their number within the
 * mind (`[person 2]`, the same in every snapshot and call). Numbers are kept per mind by a keyed
 * hash (HMAC-SHA-256 under the service's redaction key) of the name, never the name itself
 * (`PersonNumbering`, the store's redaction_people table).
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { detectBatch, type Found } from './detect.ts';
import { addCounts, placeholder, type RedactionCounts, type Span } from './kinds.ts';
import { speakerWords } from './people.ts';

/** The number of each third party of a mind, by the hash of their name; new ones get the next numbers. */
export interface PersonNumbering {
  numbers(hashes: readonly string[]): Promise<Map<string, number>>;
}

/** What a redaction gives back: the texts with placeholders, and how many values of each kind were replaced. */
export interface Redacted {
  texts: string[];
  counts: RedactionCounts;
}

/** The keyed hash a third party's number is kept under. */
export function personHash(key: string, personKey: string): string {
  return crypto.createHmac('sha256', key).update(personKey).digest('base64url');
}

/** `text` with each span replaced (spans sorted, not overlapping). */
export function substitute(text: string, spans: readonly Found[], numberOf: (s: Found) => number | undefined): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + placeholder(s.kind, s.kind === 'person' ? numberOf(s) : undefined);
    at = s.end;
  }
  return out + text.slice(at);
}

function countsOf(found: readonly Found[][]): RedactionCounts {
  const counts: RedactionCounts = {};
  for (const spans of found) for (const s of spans) addCounts(counts, { [s.kind]: 1 });
  return counts;
}

/** Detection results of texts seen before (a mind's memories recur in every prompt), per set of speakers. */
const seen = new LRUCache<string, Span[]>({ max: 50_000 });

/**
 * One mind's redaction: its speakers (never redacted), the service's key and the mind's numbering.
 * `redact` detects over the whole batch (so a name is numbered alike in every text of it), asks
 * the numbering once for the batch's third parties, and substitutes.
 */
export class Redactor {
  private readonly speakers: ReadonlySet<string>;
  private readonly signature: string;
  private readonly key: string;
  private readonly numbering: PersonNumbering;
  constructor(options: { speakers: ReadonlyArray<string | null | undefined>; key: string; numbering: PersonNumbering }) {
    this.speakers = speakerWords(options.speakers);
    this.signature = [...this.speakers].sort().join(' ');
    this.key = options.key;
    this.numbering = options.numbering;
  }

  async redact(texts: readonly string[]): Promise<Redacted> {
    const found = detectBatch(
      texts,
      this.speakers,
      (t) => seen.get(`${this.signature}\u0000${t}`),
      (t, spans) => seen.set(`${this.signature}\u0000${t}`, spans),
    );
    const hashes = new Map<string, string>();
    for (const spans of found) for (const s of spans) if (s.personKey !== undefined && !hashes.has(s.personKey)) hashes.set(s.personKey, personHash(this.key, s.personKey));
    const numbers = hashes.size > 0 ? await this.numbering.numbers([...hashes.values()]) : new Map<string, number>();
    const numberOf = (s: Found) => numbers.get(hashes.get(s.personKey ?? '') ?? '');
    return { texts: texts.map((t, i) => substitute(t, found[i] ?? [], numberOf)), counts: countsOf(found) };
  }
}

/**
 * The same redaction where the numbering cannot be asked (an analysis thread): numbers come from
 * `known` (hash → number, the mind's numbering read before), new third parties get the numbers
 * after the highest, and the new ones are returned for the caller to store.
 */
export function redactWithKnownNumbers(
  texts: readonly string[],
  options: { speakers: ReadonlyArray<string | null | undefined>; key: string; known: ReadonlyArray<readonly [string, number]> },
): Redacted & { assigned: Array<[string, number]>; found: Found[][] } {
  const found = detectBatch(texts, speakerWords(options.speakers));
  const numbers = new Map(options.known);
  let next = Math.max(0, ...numbers.values()) + 1;
  const assigned: Array<[string, number]> = [];
  const hashes = new Map<string, string>();
  const numberOf = (s: Found): number => {
    const personKey = s.personKey ?? nameOf(s);
    let hash = hashes.get(personKey);
    if (hash === undefined) {
      hash = personHash(options.key, personKey);
      hashes.set(personKey, hash);
    }
    let n = numbers.get(hash);
    if (n === undefined) {
      n = next++;
      numbers.set(hash, n);
      assigned.push([hash, n]);
    }
    return n;
  };
  return { texts: texts.map((t, i) => substitute(t, found[i] ?? [], numberOf)), counts: countsOf(found), assigned, found };
}

const nameOf = (s: Span): string => s.value.toLowerCase();
