/**
 * The redaction stage's detection: every detector over a batch of texts (a transcript's
 * utterances, a prompt's lines), overlaps resolved, and the third parties' names found once
 * anywhere in the batch found everywhere in it (compromise tags a name by its context, so
 * "Maria said" may be missed where "my friend Maria" was not). A surname or given name said alone
 * that belongs to exactly one full name of the batch is that person. A public figure's name
 * (lexicon.ts: learned from the corpus, and compromise's famous people), and a single word standing
 * for one in the batch, is no third party's and is left; nor is a single word the batch says as a
 * thing elsewhere (batch-things.ts: "the Restic repo"). A name found elsewhere is not taken where the words around it say a thing or
 * a place ("the Jenkins pipeline", "in Austin"), at a sentence's start when it is a common word,
 * or inside another name.
 */
import { findAddresses } from './address.ts';
import { batchThings } from './batch-things.ts';
import { findBirthDates } from './birth-date.ts';
import { findCards } from './card.ts';
import { findEmails } from './email.ts';
import { findIbans } from './iban.ts';
import type { RedactionKind, Span } from './kinds.ts';
import { isCommonWord, isNotPerson, isPublicFigure } from './lexicon.ts';
import { findPeople, nameKey } from './people.ts';
import { sentenceInitial, thingContext } from './person-context.ts';
import { findPhones } from './phone.ts';
import { findPersonalUrls } from './url.ts';

/** A found value with the key of the person it names (for `person` spans: their full name's key). */
export interface Found extends Span {
  personKey?: string;
}

/** When two finds overlap, the earlier kind in this list wins (a card is not also a phone number). */
const PRIORITY: readonly RedactionKind[] = ['email', 'url', 'iban', 'card', 'dob', 'phone', 'address', 'person'];

function resolveOverlaps(spans: Span[]): Span[] {
  const ranked = [...spans].sort((a, b) => PRIORITY.indexOf(a.kind) - PRIORITY.indexOf(b.kind) || b.end - b.start - (a.end - a.start));
  const kept: Span[] = [];
  for (const s of ranked) if (!kept.some((k) => s.start < k.end && k.start < s.end)) kept.push(s);
  return kept.sort((a, b) => a.start - b.start);
}

/** Placeholders already in a text (a stored-mode text redacted again) are never detected into. */
const PLACEHOLDER_SPAN = /\[(?:email|phone|card|iban|address|url|date of birth|person \d+)\]/g;

/** Everything but names, in one text. */
export function findStructured(text: string): Span[] {
  return [...findEmails(text), ...findPersonalUrls(text), ...findIbans(text), ...findCards(text), ...findBirthDates(text), ...findPhones(text), ...findAddresses(text)];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const overlaps = (spans: readonly Span[], s: Span) => spans.some((o) => s.start < o.end && o.start < s.end);

/** A batch's full names as they appear in handles, e-mails and URLs: "maria-lopez", "maria.lopez", "marialopez", "maria_lopez". */
function slugPattern(keys: readonly string[]): { pattern: RegExp; keyOf: (slug: string) => string | undefined } | null {
  const bySlug = new Map<string, string>();
  for (const key of keys) {
    const words = key.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^a-z ]/g, '').split(' ').filter(Boolean);
    if (words.length >= 2) bySlug.set(words.join(''), key);
  }
  if (bySlug.size === 0) return null;
  const alternatives = [...bySlug.keys()].map((slug) => slug);
  const forms = [...new Set(keys.map((k) => k.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^a-z ]/g, '').split(' ').filter(Boolean)))]
    .filter((w) => w.length >= 2)
    .map((w) => w.map(escapeRegExp).join('[-._]?'));
  if (forms.length === 0 || alternatives.length === 0) return null;
  return { pattern: new RegExp(`(?:${forms.join('|')})`, 'gi'), keyOf: (slug) => bySlug.get(slug.toLowerCase().replace(/[-._]/g, '')) };
}

/** Each handle, e-mail or URL (a run without spaces) holding a batch's full name: a URL is [url], anything else that person. */
function inHandles(text: string, pattern: RegExp, keyOf: (slug: string) => string | undefined): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(pattern)) {
    let start = m.index;
    let end = start + m[0].length;
    const token = (c: string | undefined) => c !== undefined && !/[\s"'()<>[\]{}]/.test(c);
    while (start > 0 && token(text[start - 1])) start--;
    while (end < text.length && token(text[end])) end++;
    while (end > start && /[.,;:!?]/.test(text[end - 1] ?? '')) end--;
    const value = text.slice(start, end);
    // A name written as a name (with its space) is the names pass's; here only slugs inside a longer run.
    if (value === m[0] && !/[-._]/.test(m[0])) continue;
    const key = keyOf(m[0]);
    out.push(value.includes('/') ? { start, end, kind: 'url', value } : value.includes('@') ? { start, end, kind: 'email', value } : { start, end, kind: 'person', value, ...(key ? { personKey: key } : {}) });
  }
  return out;
}

/**
 * Every value in each text of the batch. `speakers` are the words of the speakers' names (never
 * third parties). `known` maps a text to what was found in it before (a cache the caller keeps
 * for texts seen again, such as a mind's memories in every prompt).
 */
export function detectBatch(texts: readonly string[], speakers: ReadonlySet<string>, known?: (text: string) => Span[] | undefined, remember?: (text: string, spans: Span[]) => void): Found[][] {
  const perText = texts.map((text) => {
    const cached = known?.(text);
    if (cached) return cached;
    const taken = [...text.matchAll(PLACEHOLDER_SPAN)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    const spans = resolveOverlaps([...findStructured(text), ...findPeople(text, speakers)]).filter((s) => !taken.some((t) => s.start < t.end && t.start < s.end));
    remember?.(text, spans);
    return spans;
  });
  // A single word the batch says as a thing elsewhere ("the Restic repo", "restic") is none of its people.
  const things = batchThings(
    texts,
    perText.flatMap((spans) => spans.filter((s) => s.kind === 'person' && /^\p{Lu}\p{Ll}+$/u.test(s.value)).map((s) => s.value)),
  );
  if (things.size > 0) for (const [i, spans] of perText.entries()) perText[i] = spans.filter((s) => s.kind !== 'person' || !things.has(s.value));
  // The batch's names: full names, and the single words that stand for exactly one of them.
  const fullNames = new Map<string, string>(); // key → as written (first seen)
  for (const spans of perText) for (const s of spans) if (s.kind === 'person') fullNames.set(nameKey(s.value), s.value);
  const aliases = new Map<string, string | null>(); // a single word's key → the full name's key (null: ambiguous)
  for (const key of fullNames.keys()) {
    const words = key.split(' ');
    if (words.length < 2) continue;
    for (const w of words) if (w.length > 2 && !speakers.has(w)) aliases.set(w, aliases.has(w) && aliases.get(w) !== key ? null : key);
  }
  const personKey = (value: string): string => {
    const key = nameKey(value);
    return key.includes(' ') ? key : (aliases.get(key) ?? key);
  };
  // A public figure, or a word standing for one in the batch ("Linus" beside "Linus Torvalds"), is no third party.
  const isPublic = (value: string): boolean => isPublicFigure(value) || isPublicFigure(personKey(value));
  for (const [i, spans] of perText.entries()) if (spans.some((s) => s.kind === 'person' && isPublic(s.value))) perText[i] = spans.filter((s) => s.kind !== 'person' || !isPublic(s.value));
  for (const [key, value] of fullNames) if (isPublic(value)) fullNames.delete(key);
  for (const [word, full] of aliases) if (full === null || isPublicFigure(full)) aliases.delete(word);
  // Names found somewhere, found everywhere (as written with a capital, on word boundaries); never a common word or a thing's name alone.
  const surfaces = [...new Set([...fullNames.values(), ...aliases.keys()])]
    .map((name) => name.replace(/^\p{Ll}/u, (c) => c.toUpperCase()))
    .filter((name) => /^\p{Lu}/u.test(name) && !/['’](?!s$)\p{Ll}/u.test(name) && (name.includes(' ') || (name.length > 2 && !isCommonWord(name) && !isNotPerson(name))))
    .sort((a, b) => b.length - a.length);
  const pattern = surfaces.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${surfaces.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu') : null;
  const slugs = slugPattern([...fullNames.keys()]);
  return texts.map((text, i) => {
    const spans: Found[] = (perText[i] ?? []).map((s) => (s.kind === 'person' ? { ...s, personKey: personKey(s.value) } : s));
    if (!pattern && !slugs) return spans;
    const extra: Found[] = [];
    if (slugs) for (const found of inHandles(text, slugs.pattern, slugs.keyOf)) if (!overlaps([...spans, ...extra], found)) extra.push(found);
    if (!pattern) return [...spans, ...extra].sort((a, b) => a.start - b.start);
    for (const m of text.matchAll(pattern)) {
      const start = m.index;
      const end = start + m[0].length;
      if (spans.some((s) => start < s.end && s.start < end) || extra.some((s) => start < s.end && s.start < end)) continue;
      if (text.slice(Math.max(0, start - 1), start) === '[') continue;
      if (!m[0].includes(' ') && !aloneHere(text, start, end)) continue;
      extra.push({ start, end, kind: 'person', value: m[0], personKey: personKey(m[0]) });
    }
    return extra.length > 0 ? [...spans, ...extra].sort((a, b) => a.start - b.start) : spans;
  });
}

/** A single name word found elsewhere, here said as a name: not a thing's or place's context, not a sentence-initial common word, not inside another name. */
function aloneHere(text: string, start: number, end: number): boolean {
  if (thingContext(text, start, end)) return false;
  if (sentenceInitial(text, start) && isCommonWord(text.slice(start, end))) return false;
  return !/\p{Lu}[\p{L}'’-]*\s$/u.test(text.slice(Math.max(0, start - NAME_WORD_CHARS), start)) && !/^\s\p{Lu}/u.test(text.slice(end, end + 2));
}
/** The longest name word looked for right before a single name (a given name before a surname). */
const NAME_WORD_CHARS = 24;
