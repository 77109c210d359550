/**
 * Answer stage: which of the person's sentences each field of an answer quotes, beside the saying.
 * In every field a sentence that says one of the scenario's words comes first.
 *
 * - thinking: why. Sentences that give a reason (a cause or a rule first, then a belief), outside
 *   the saying. One that can be reported in the third person (text/reported.ts) names the view, a
 *   rule or a belief first; else a reportable one of the saying does.
 * - acting: what they say they do, did or would do (text/readings.ts `deedOf`), outside the saying;
 *   else, when the saying itself states a habit, that (quoted only when the saying is all the mind
 *   holds); else nothing (the engine says they have not said).
 * - feeling: their stance toward the scenario's subject (their answer's sentences that say its words,
 *   else the whole answer; mixed when strong sentences go both ways, or when the rest of what they
 *   said on it leans the other way), with the sentence that carries it, outside the saying.
 *
 * No sentence serves two fields, and a sentence that would make a field share FIELD_SHARE of its
 * content words with another field is left out (issue 29: no field repeats another).
 */
import { reported } from '../text/reported.ts';
import type { Deed, Reason } from '../text/readings.ts';
import { ACTING_QUOTES, FEELING_LEANING, FEELING_MIXED, FEELING_STRONG, FIELD_SHARE, THINKING_QUOTES } from '../tuning.ts';
import { sharedShare, type Candidate } from './candidates.ts';

export type Tone = 'positive' | 'uneasy' | 'mixed' | 'calm';

export interface FieldChoice {
  /** The sentence reported as thinking's lead (it names the view), or null. */
  view: Candidate | null;
  /** The reasons thinking quotes, best first. */
  reasons: Candidate[];
  /** Nothing to quote for thinking, but the saying gives a reason of theirs. */
  reasonInSaying: boolean;
  /** What acting quotes, best first (a sentence of the saying only when the mind has nothing else to quote). */
  acting: Candidate[];
  /** Nothing to quote for acting, but the saying states a habit of theirs. */
  actingInSaying: boolean;
  tone: Tone;
  /** The sentences that carry the stance (for mixed, one each way), or none outside the saying. */
  feeling: Candidate[];
}

type Field = 'saying' | 'thinking' | 'feeling' | 'acting';

const keyOf = (c: Candidate): string => `${c.docs[0] ?? -1}:${c.part}`;

/** The content stems each field holds so far, and whether a sentence may join one without repeating another. */
class Fields {
  private readonly stems = new Map<Field, Set<string>>();
  /** The sentences quoted so far (a doc and a part of it: candidates.ts). */
  private readonly used = new Set<string>();

  constructor(saying: ReadonlySet<string>) {
    this.stems.set('saying', new Set(saying));
  }

  fits(field: Field, c: Candidate): boolean {
    if (this.used.has(keyOf(c))) return false;
    const joined = new Set([...(this.stems.get(field) ?? []), ...c.stems]);
    for (const [other, stems] of this.stems) if (other !== field && sharedShare(joined, stems) >= FIELD_SHARE) return false;
    return true;
  }

  add(field: Field, c: Candidate): Candidate {
    this.used.add(keyOf(c));
    const stems = this.stems.get(field) ?? new Set<string>();
    for (const s of c.stems) stems.add(s);
    this.stems.set(field, stems);
    return c;
  }

  /** Up to `max` of `pool`, in order, each fitting the field with the ones before it. */
  take(field: Field, pool: readonly Candidate[], max: number): Candidate[] {
    const out: Candidate[] = [];
    for (const c of pool) {
      if (out.length >= max) break;
      if (this.fits(field, c)) out.push(this.add(field, c));
    }
    return out;
  }
}

const usable = (c: Candidate): boolean => !c.greeting && !c.question;
/** 1 for a sentence that says one of the scenario's words: such a sentence comes first in every field. */
const onSubject = (c: Candidate): number => Number(c.overlap > 0);
const DEED_ORDER: Record<Exclude<Deed, null>, number> = { habit: 0, did: 1, would: 2 };

/** A view is best named by a rule or a belief, then by a cause; a "why" is best a cause or a rule. */
const AS_VIEW: Record<Exclude<Reason, null>, number> = { rule: 0, belief: 1, cause: 2 };
const AS_WHY: Record<Exclude<Reason, null>, number> = { cause: 0, rule: 0, belief: 1 };

function chooseThinking(fields: Fields, pool: readonly Candidate[], saying: readonly Candidate[]): Pick<FieldChoice, 'view' | 'reasons' | 'reasonInSaying'> {
  const reasons = pool.filter((c) => usable(c) && c.reason !== null);
  const reportable = (c: Candidate) => c.reason !== null && reported(c.text) !== null && fields.fits('thinking', c);
  // The view is named by a reportable sentence on the scenario's subject (one of its words), else by the best ranked one.
  const asView = [...reasons].sort((a, b) => onSubject(b) - onSubject(a) || AS_VIEW[a.reason ?? 'cause'] - AS_VIEW[b.reason ?? 'cause'] || a.rank - b.rank);
  const lead = asView.find(reportable);
  const view = lead ? fields.add('thinking', lead) : null;
  const asWhy = [...reasons].sort((a, b) => onSubject(b) - onSubject(a) || AS_WHY[a.reason ?? 'cause'] - AS_WHY[b.reason ?? 'cause'] || a.rank - b.rank);
  const quoted = fields.take('thinking', asWhy, THINKING_QUOTES);
  if (view) return { view, reasons: quoted, reasonInSaying: false };
  // Else the saying's own view, reported, names it: what is quoted after it is still new.
  const own = saying.find((c) => usable(c) && reportable(c));
  const reasonInSaying = !own && quoted.length === 0 && saying.some((c) => usable(c) && c.reason !== null);
  return { view: own ? fields.add('thinking', own) : null, reasons: quoted, reasonInSaying };
}

function chooseActing(fields: Fields, pool: readonly Candidate[], saying: readonly Candidate[], alone: boolean): Pick<FieldChoice, 'acting' | 'actingInSaying'> {
  const byDeed = (cs: readonly Candidate[]) =>
    cs.filter((c) => usable(c) && c.deed !== null).sort((a, b) => onSubject(b) - onSubject(a) || a.rank - b.rank || DEED_ORDER[a.deed ?? 'would'] - DEED_ORDER[b.deed ?? 'would']);
  const acting = fields.take('acting', byDeed(pool), ACTING_QUOTES);
  if (acting.length > 0) return { acting, actingInSaying: false };
  // A habit stated only in the saying: said to be there, or quoted when the saying is all the mind holds.
  const own = byDeed(saying).filter((c) => c.deed === 'habit').slice(0, 1);
  if (own.length === 0) return { acting: [], actingInSaying: false };
  return alone ? { acting: own, actingInSaying: false } : { acting: [], actingInSaying: true };
}

/** The stance over some sentences: mixed when strong ones go both ways and they even out, else by their mean. */
function toneOf(read: readonly Candidate[]): Tone {
  const mean = read.reduce((s, c) => s + c.sentiment, 0) / Math.max(1, read.length);
  const pos = read.some((c) => c.sentiment >= FEELING_STRONG);
  const neg = read.some((c) => c.sentiment <= -FEELING_STRONG);
  if (pos && neg && Math.abs(mean) < FEELING_MIXED) return 'mixed';
  if (mean >= FEELING_LEANING) return 'positive';
  return mean <= -FEELING_LEANING ? 'uneasy' : 'calm';
}

/** Their stance toward the scenario's subject: their answer's (its sentences on the subject, else all of it), mixed when the rest of what they said on it leans the other way. */
function stanceOf(saying: readonly Candidate[], pool: readonly Candidate[]): Tone {
  const onSubject = (cs: readonly Candidate[]) => cs.filter((c) => usable(c) && c.overlap > 0);
  const answer = onSubject(saying).length > 0 ? onSubject(saying) : saying.filter(usable);
  const own = toneOf(answer);
  const rest = toneOf(onSubject(pool));
  if ((own === 'positive' && rest === 'uneasy') || (own === 'uneasy' && rest === 'positive')) return 'mixed';
  return own === 'calm' ? rest : own;
}

function chooseFeeling(fields: Fields, pool: readonly Candidate[], saying: readonly Candidate[]): Pick<FieldChoice, 'tone' | 'feeling'> {
  const tone = stanceOf(saying, pool);
  const open = pool.filter(usable);
  // Sentences on the subject first, then the strongest the right way.
  const strongest = (sign: 1 | -1) =>
    open.filter((c) => sign * c.sentiment >= FEELING_LEANING).sort((a, b) => onSubject(b) - onSubject(a) || sign * (b.sentiment - a.sentiment) || a.rank - b.rank);
  if (tone === 'positive') return { tone, feeling: fields.take('feeling', strongest(1), 1) };
  if (tone === 'uneasy') return { tone, feeling: fields.take('feeling', strongest(-1), 1) };
  if (tone === 'mixed') {
    const up = fields.take('feeling', strongest(1), 1);
    const down = fields.take('feeling', strongest(-1), 1);
    return { tone, feeling: up.length && down.length ? [...up, ...down] : [...up, ...down].slice(0, 1) };
  }
  const plain = open.filter((c) => c.overlap > 0 && Math.abs(c.sentiment) < FEELING_LEANING);
  return { tone, feeling: fields.take('feeling', plain, 1) };
}

/**
 * The fields' sentences. `pool` is every candidate outside the saying (best ranked first), `saying`
 * the saying's own sentences, `sayingStems` its content stems; `alone` when the saying is all the
 * mind holds (then acting may quote it: there is nothing else to quote).
 */
export function chooseFields(pool: readonly Candidate[], saying: readonly Candidate[], sayingStems: ReadonlySet<string>, alone: boolean): FieldChoice {
  const fields = new Fields(sayingStems);
  const thinking = chooseThinking(fields, pool, saying);
  const acting = chooseActing(fields, pool, saying, alone);
  const feeling = chooseFeeling(fields, pool, saying);
  return { ...thinking, ...acting, ...feeling };
}
