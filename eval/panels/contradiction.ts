/**
 * Does a typed answer contradict the passage it quotes? A checker for the evaluation, reading the
 * quoted words its own way, apart from how the engine decided (src/engines/grounded-yes-no.ts reads
 * wink-nlp's tokens, its negation list and sentiment; this one reads compromise's parse, its
 * negation tags and a small word list of its own), so that one reader's blind spot is not
 * counted as agreement with itself. How often it agrees with a person's reading is measured
 * against hand judgements (judgements.ts), and EVAL.md gives both.
 *
 * - yes/no: in the quoted passage, the sentence and then the clause that say most of the ask's
 *   words; its polarity is the parity of its negations against the ask's own, or, for a question of
 *   judgement, the sign of its judgement words (negated by a negation before them in the clause).
 *   The answer contradicts it when they differ.
 * - single / multiple over words: a chosen option whose words stand only in a negated clause, or on
 *   the side a contrast sets aside ("X rather than Y", "instead of Y"), of the quoted passage.
 * - likert: the side of the point (above or below the middle) against the polarity, as for a
 *   question of judgement, of the clause that says most of the question's words; a middle point
 *   or an unread clause contradicts nothing.
 * Other answers (number, open, no_evidence) have nothing to contradict: 'none'.
 */
import nlp from 'compromise';
import type { Question, TypedAnswer } from '../../src/engines/questions.ts';

export type Verdict = 'agrees' | 'contradicts' | 'unread' | 'none';

/** Judgement words (their own list, not wink-nlp's lexicon): positive, then negative. */
const GOOD = /\b(?:love[sd]?|loving|like[sd]?|enjoy\w*|great|best|good|better|fun|favou?rite|happy|amazing|awesome|worth|excit\w*|proud|fantastic|wonderful|helpful|useful|valuable|recommend\w*|glad|fan|easy|nice|cool|interesting|productive)\b/gi;
const BAD = /\b(?:hate[sd]?|hating|dislike[sd]?|waste\w*|bad|worst|worse|awful|terrible|boring|annoy\w*|painful|frustrat\w*|difficult|drain\w*|regret\w*|scary|afraid|stress\w*|horrible|useless|hard|tired|sucks?|overrated|wrong|problem\w*)\b/gi;
const QUESTION_JUDGEMENT = /\b(?:like|love|enjoy|hate|dislike|prefer|recommend|worth|good|bad|better|worse|great|happy|fan|trust|important|useful|fun|hard|easy|regret|feel)\b/i;
const FRAME = new Set(['do', 'does', 'did', 'you', 'your', 'would', 'will', 'can', 'could', 'have', 'has', 'had', 'are', 'is', 'was', 'were', 'be', 'the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'it', 'that', 'this', 'how', 'much', 'many', 'what', 'which', 'should', 'i', 'me', 'my', 'we', 'and', 'or', 'with', 'at', 'as', 'about', 'ever', 'still']);
const YES = /^(?:yes|yeah|yep|true|agree)$/i;
const NO = /^(?:no|nope|false|disagree|never)$/i;

/** A word's rough root (its own: lower-case, common endings off). */
const root = (w: string): string => w.toLowerCase().replace(/['’]s$/, '').replace(/(?:ing|ed|es|s|ly)$/, '');
const roots = (text: string): Set<string> => new Set((text.match(/[A-Za-z][A-Za-z'-]*/g) ?? []).map(root).filter((w) => w.length > 1 && !FRAME.has(w)));
const overlap = (a: ReadonlySet<string>, text: string): number => [...roots(text)].filter((w) => a.has(w)).length;

/** Negations by compromise's tags (contractions included), and the negating words it does not tag. */
function negations(text: string): number {
  const doc = nlp(text);
  return doc.match('#Negative').length + doc.match('(without|nobody|nothing|none|neither|nor|cannot)').length;
}

/** compromise's sentences, then the clauses of one. */
const sentencesOf = (text: string): string[] => nlp(text).sentences().out('array') as string[];
const clausesOf = (text: string): string[] => nlp(text).clauses().out('array') as string[];

/** The clause of the passage that says most of `words`, or null when none says any. */
function clauseAbout(passage: string, words: ReadonlySet<string>): string | null {
  let best: { text: string; n: number } | null = null;
  for (const s of sentencesOf(passage)) {
    for (const c of clausesOf(s)) {
      const n = overlap(words, c);
      if (n > 0 && (!best || n > best.n)) best = { text: c, n };
    }
  }
  return best?.text ?? null;
}

/** +1 / −1 / 0: the clause's judgement words, each flipped by a negation before it in the clause. */
function judgementOf(clause: string): number {
  let sum = 0;
  const negs = [...clause.matchAll(/\b(?:not|never|no|n't|without)\b|n't/gi)].map((m) => m.index);
  for (const [re, sign] of [
    [GOOD, 1],
    [BAD, -1],
  ] as const) {
    for (const m of clause.matchAll(re)) sum += sign * (negs.some((at) => at < m.index) ? -1 : 1);
  }
  return Math.sign(sum);
}

/** The last question sentence of a question text (a scenario's ask). */
const askOf = (text: string): string => sentencesOf(text).filter((s) => s.includes('?')).at(-1) ?? text;

function yesNo(q: Question, a: TypedAnswer): Verdict {
  const ask = askOf(q.text);
  const clause = clauseAbout(a.saying, roots(ask));
  if (!clause) return 'unread';
  const askNegations = negations(ask.replace(/^\s*\w+n't\b/i, ''));
  let polarity = (negations(clause) + askNegations) % 2 === 0 ? 1 : -1;
  if (QUESTION_JUDGEMENT.test(ask)) {
    const j = judgementOf(clause);
    if (j !== 0) polarity = j * (askNegations % 2 === 0 ? 1 : -1);
  }
  const said = YES.test(a.choices[0] ?? '') ? 1 : NO.test(a.choices[0] ?? '') ? -1 : 0;
  if (said === 0) return 'unread';
  return said === polarity ? 'agrees' : 'contradicts';
}

/** Whether the passage sets an option aside: its words only in negated clauses or on a contrast's far side. */
function setAside(option: string, passage: string): boolean | null {
  const words = roots(option);
  if (words.size === 0) return null;
  let kept = false;
  let rejected = false;
  for (const s of sentencesOf(passage)) {
    for (const c of clausesOf(s)) {
      const contrast = /\b(?:rather than|instead of|as opposed to|than|versus|vs\.?)\s/i.exec(c);
      const parts = contrast ? [c.slice(0, contrast.index), c.slice(contrast.index)] : [c];
      parts.forEach((part, i) => {
        if (overlap(words, part) * 2 < words.size) return;
        if (i === 1 || negations(part) % 2 === 1) rejected = true;
        else kept = true;
      });
    }
  }
  return kept || rejected ? rejected && !kept : null;
}

function choices(a: TypedAnswer): Verdict {
  const read = a.choices.map((c) => setAside(c, a.saying));
  if (read.some((r) => r === true)) return 'contradicts';
  return read.some((r) => r === false) ? 'agrees' : 'unread';
}

function likert(q: Question, a: TypedAnswer): Verdict {
  const scale = q.scale ?? { min: 1, max: 5 };
  const mid = (scale.min + scale.max) / 2;
  if (a.value === null || a.value === mid) return 'unread';
  const clause = clauseAbout(a.saying, roots(q.text));
  const j = clause ? judgementOf(clause) : 0;
  if (j === 0) return 'unread';
  const labels = scale.labels ?? [];
  // A scale whose first label is its most positive ("very much" … "not at all") runs the other way.
  const descending = labels.length > 1 && judgementOf(labels[0] ?? '') + (/\b(?:very|much|always|strongly agree)\b/i.test(labels[0] ?? '') ? 1 : 0) > judgementOf(labels.at(-1) ?? '');
  const asksNegatively = /\b(?:dislike|hate|worr\w*|afraid|fear|frustrat\w*|annoy\w*|stress\w*|regret\w*|anxious|concern\w*|bother\w*)\b/i.test(q.text);
  const side = (a.value > mid ? 1 : -1) * (descending ? -1 : 1) * (asksNegatively ? -1 : 1);
  return side === j ? 'agrees' : 'contradicts';
}

/** Does `a` contradict the passage it quotes (its `saying`)? */
export function contradiction(q: Question, a: TypedAnswer): Verdict {
  if (a.status !== 'answered' || a.saying.length === 0) return 'none';
  if (q.type === 'single' && (q.options ?? []).some((o) => YES.test(o.trim())) && (q.options ?? []).some((o) => NO.test(o.trim()))) return yesNo(q, a);
  if (q.type === 'single' || q.type === 'multiple') return choices(a);
  if (q.type === 'likert') return likert(q, a);
  return 'none';
}
