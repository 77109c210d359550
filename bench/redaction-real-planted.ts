/**
 * Readability's other side (issue 30, item 2): values planted into REAL passages that hold no
 * personal data (judged so by hand), and the share of them the redaction catches. Each passage
 * gets PER_PASSAGE sentences, each with one value, put between two of its sentences; the passage
 * is redacted as one text with its episode's speakers. Values are made as the generated corpus
 * makes them (bench/redaction-corpus.ts: its development half of the names for the development
 * set, the other half for the report set), plus addresses in the European order ("40
 * Lindenstraße, 10969 Berlin", "12 rue de Rivoli, 75001 Paris"). The sentences were written for
 * this bench, in the way people talk (not the generated corpus's templates).
 */
import { seededRandom } from '../src/memory/seeded-random.ts';
import { detectBatch } from '../src/privacy/detect.ts';
import { REDACTION_KINDS, type RedactionKind } from '../src/privacy/kinds.ts';
import { speakerWords } from '../src/privacy/people.ts';
import { plantedValue, thirdParties } from './redaction-corpus.ts';
import { covered } from './redaction-real-passages.ts';

/** Values planted in each passage. */
const PER_PASSAGE = 2;
/** The report set's seed (bench/redaction-real.ts): its passages get the report half of the names. */
const REPORT_SEED = 41;

const SENTENCES: Record<RedactionKind, readonly string[]> = {
  person: [
    'I was pairing with {full} on that last week.',
    'And {first} was like, no, we should just ship it.',
    'Shout-out to {full}, who wrote most of the docs.',
    '{full} sent me a pull request for it.',
    'We brought {first} in to help with the migration.',
    'My manager at the time, {full}, hated that idea.',
    'I think {first} disagreed with me on that one.',
  ],
  email: ['Just email me, {value}, and I will send it over.', 'People can reach her at {value} if they want the notes.', 'The invoice came from {value} and I ignored it.'],
  phone: ['If you want to call, it is {value}, any time.', 'He texted me from {value} at two in the morning.', 'My old number was {value}, which I still get calls on.'],
  card: ['I typed {value} into the form and it got declined.', 'She read her card number, {value}, out loud on the stream.'],
  iban: ['Wire it to my account, {value}, and we are done.', 'My IBAN is {value}, if that helps.'],
  address: ['I moved to {value} last year.', 'Send the stickers to {value} and I will share them.', 'We were renting a flat at {value} at the time.'],
  url: ['I am {value} on pretty much everything.', 'His portfolio is at {value} now.', 'You can follow her at {value}.'],
  dob: ['I was born on {value}, for what it is worth.', 'My birthday is {value}, so the release was a present.'],
};

const EU_STREETS = ['Lindenstraße', 'Goethestraße', 'Kastanienallee', 'Rosenweg', 'Bergmannstraße'];
const EU_TOWNS: Array<[string, string]> = [['10969', 'Berlin'], ['80331', 'München'], ['50667', 'Köln'], ['1010', 'Wien'], ['8001', 'Zürich']];
const FR_STREETS = ['rue de Rivoli', 'rue Oberkampf', 'avenue de la République', 'boulevard Voltaire'];
const FR_TOWNS: Array<[string, string]> = [['75001', 'Paris'], ['69002', 'Lyon'], ['33000', 'Bordeaux']];

/** House numbers of the European addresses: 1 to this (a street's usual range). */
const MAX_HOUSE_NUMBER = 120;
type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** An address in the European order: the number first ("40 Lindenstraße") or after the street name ("Lindenstraße 40"). */
function europeanAddress(r: Rng): string {
  const n = 1 + Math.floor(r() * MAX_HOUSE_NUMBER);
  if (r() < 0.5) {
    const [zip, town] = pick(r, EU_TOWNS);
    return r() < 0.5 ? `${n} ${pick(r, EU_STREETS)}, ${zip} ${town}` : `${pick(r, EU_STREETS)} ${n}, ${zip} ${town}`;
  }
  const [zip, town] = pick(r, FR_TOWNS);
  return `${n} ${pick(r, FR_STREETS)}, ${zip} ${town}`;
}

/** Where sentences start in a passage (a planted sentence goes before one of them). */
function boundaries(text: string): number[] {
  return [0, ...[...text.matchAll(/[.!?]["'”’)]*\s+/g)].map((m) => m.index + m[0].length)];
}

export function plantedShare(passages: ReadonlyArray<{ id: string; text: string; speakers?: string[] }>, seed: number): void {
  const r = seededRandom(seed);
  const { given, family } = thirdParties(seed === REPORT_SEED ? 'report' : 'dev');
  const tally = new Map<RedactionKind, { planted: number; caught: number; missed: string[] }>(REDACTION_KINDS.map((k) => [k, { planted: 0, caught: 0, missed: [] }]));
  let other = 0;
  let otherReplaced = 0;
  let n = 0;
  for (const p of passages) {
    let text = p.text;
    // A third party's name is nobody's in the episode (a planted "Nadia" in an episode Nadia speaks in is hers).
    const speakers = speakerWords(p.speakers ?? []);
    const others = (names: readonly string[]) => names.filter((n) => !n.toLowerCase().split(/\s+/).some((w) => speakers.has(w)));
    const planted: Array<{ kind: RedactionKind; start: number; end: number }> = [];
    for (let i = 0; i < PER_PASSAGE; i++) {
      const kind = REDACTION_KINDS[n++ % REDACTION_KINDS.length] as RedactionKind;
      const first = pick(r, others(given));
      const last = pick(r, others(family));
      const template = pick(r, SENTENCES[kind]);
      const value = kind === 'person' ? (template.includes('{full}') ? `${first} ${last}` : first) : kind === 'address' && r() < 0.5 ? europeanAddress(r) : plantedValue(r, kind, first, last);
      const slot = /\{(?:value|full|first)\}/.exec(template);
      if (!slot) continue;
      const sentence = template.slice(0, slot.index) + value + template.slice(slot.index + slot[0].length);
      const at = pick(r, boundaries(text));
      const insert = `${sentence} `;
      for (const q of planted) if (q.start >= at) [q.start, q.end] = [q.start + insert.length, q.end + insert.length];
      const start = at + slot.index;
      planted.push({ kind, start, end: start + value.length });
      text = text.slice(0, at) + insert + text.slice(at);
    }
    const [spans = []] = detectBatch([text], speakers);
    for (const q of planted) {
      const t = tally.get(q.kind);
      if (!t) continue;
      t.planted++;
      if (covered(text, q.start, q.end - q.start, spans.filter((s) => s.kind === q.kind))) t.caught++;
      else t.missed.push(`${p.id} «${text.slice(q.start, q.end)}»`);
    }
    // The passage's own words (outside the planted sentences' values) replaced.
    for (const m of text.matchAll(/\S+/g)) {
      const end = m.index + m[0].length;
      if (planted.some((q) => q.start < end && m.index < q.end)) continue;
      other++;
      if (spans.some((s) => s.start < end && m.index < s.end)) otherReplaced++;
    }
  }
  console.log(`\nvalues planted in the ${passages.length} passages without personal data (${PER_PASSAGE} each, kinds in turn)`);
  console.log('| kind | planted | caught | share |');
  console.log('|---|---:|---:|---:|');
  let planted = 0;
  let caught = 0;
  for (const [k, t] of tally) {
    planted += t.planted;
    caught += t.caught;
    console.log(`| ${k} | ${t.planted} | ${t.caught} | ${t.planted ? (t.caught / t.planted).toFixed(3) : '—'} |`);
  }
  console.log(`| all | ${planted} | ${caught} | ${planted ? (caught / planted).toFixed(3) : '—'} |`);
  console.log(`other words replaced in those passages: ${otherReplaced} of ${other} (${other ? ((100 * otherReplaced) / other).toFixed(2) : '—'}%)`);
  for (const [k, t] of tally) if (t.missed.length > 0) console.log(`missed ${k}: ${t.missed.slice(0, 12).join('; ')}${t.missed.length > 12 ? ' …' : ''}`);
}
