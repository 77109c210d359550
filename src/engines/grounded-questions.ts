/**
 * Typed answers, offline (panels): a question's answer from the person's own words, or
 * `no_evidence` — never a guess.
 *
 * 1. Retrieval on the question, its options as context (memory/question-evidence.ts): the
 *    passages that bear on it, each sentence weighted, and the retrieval's confidence. Below
 *    `declineBelow` nothing they said bears on it: no_evidence.
 * 2. By type:
 *    - single: each option's support is its best sentence's weight × how well that sentence says
 *      the option (same words, or near in word-vector meaning; an option said across a sentence
 *      and the one before it in the same answer counts whole) × the sentence's stance toward it:
 *      halved when the option is what a contrast sets aside ("data instead of storytelling",
 *      "X rather than Y", "more X than Y", "not so much X as Y") or what a negation covers ("I
 *      never drink decaf"), and, for a question of preference, × 1.3 when the sentence says what
 *      they prefer or enjoy ("I'd rather…", "I love…", "without question"); "yes"/"no" options are read as
 *      the sentences that address the question, without or with a negation; "both" wins when the
 *      two best other options are both supported. The best option must be supported
 *      (`optionSupport`) and ahead of the next by `optionMargin`, else no_evidence.
 *    - multiple: every option supported (`multipleSupport`); none → no_evidence.
 *    - likert: the sentiment (negation-aware) of the sentences that address the question,
 *      mapped onto the scale (its direction from its labels' meaning, flipped for a question
 *      asked negatively); too weak a stance → no_evidence.
 *    - number: a number stated in a sentence read, whose unit is what the question counts
 *      ("how many years" → "two years"), within the scale's bounds; none → no_evidence.
 *    - open: the best passage.
 * 3. `saying` is the passage that decided, in their words; `evidence` the passages read, that one
 *    first; `confidence` the retrieval's confidence × how clearly the answer won.
 *
 * Per question (the same for every mind of a panel) the options' word vectors and the scale's
 * reading are prepared once and remembered. Deterministic.
 */
import type { MindMemory } from '../memory/mind-memory.ts';
import { askedUnit, statedNumbers, TIME_UNITS, type AskedUnit, type StatedNumber } from '../memory/numbers.ts';
import { PhraseMatcher, questionPassages, wordsOfText, type QuestionPassages, type SentenceWord } from '../memory/question-evidence.ts';
import { asksNegatively, isNegated, labelsDescend, sentenceSentiment, stanceParts } from '../memory/stance.ts';
import { passageEvidence, round3 } from './evidence.ts';
import { tidy } from './grounded-analysis.ts';
import type { Question, TypedAnswer } from './questions.ts';

/**
 * The thresholds of the no_evidence rule, calibrated on the panel questions (`npm run eval:panels`,
 * EVAL.md): `declineBelow`, the retrieval confidence under which nothing the person said bears on
 * the question; single: the best option's support must reach `optionSupport` and lead the next
 * option's by `optionMargin`; multiple: each option chosen has at least `multipleSupport`; likert:
 * a weighted sentiment weaker than `minStance` is no stance.
 */
export interface TypedThresholds {
  declineBelow: number;
  optionSupport: number;
  optionMargin: number;
  multipleSupport: number;
  minStance: number;
}

export const TYPED_THRESHOLDS: Readonly<TypedThresholds> = {
  declineBelow: 0.2,
  optionSupport: 0.35,
  optionMargin: 0.1,
  multipleSupport: 0.45,
  minStance: 0.05,
};
/** likert: a sentence addresses the question when it says this much of its subject words (stance verbs aside). */
const ADDRESSES = 0.5;
/** likert: sentiment (mostly within ±0.5 for spoken sentences) × this spans the scale. */
const LIKERT_GAIN = 3;
/** number: the sentence says at least this much of the question's subject words. */
const NUMBER_TOPIC = 0.5;
/** multiple: an option chosen has at least this share of the best option's support. */
const MULTIPLE_SHARE = 0.75;
/** number: a unit word this near the asked one in meaning counts ("employees" for "people"). */
const UNIT_COSINE = 0.6;

export const NO_EVIDENCE_SAYING = "I haven't talked about that, so I can't say.";
export const UNDECIDED_SAYING = "I've talked around this, but nothing I've said settles it.";

const YES = /^(yes|yeah|yep|true|agree)$/i;
const NO = /^(no|nope|false|disagree|never)$/i;
const BOTH = /^(both|all of (the|these|them)( above)?|all (three|of them))$/i;

interface Prepared {
  scenario: string;
  subject: PhraseMatcher;
  options: Array<{ text: string; kind: 'yes' | 'no' | 'both' | 'words'; matcher: PhraseMatcher }>;
  unit: AskedUnit;
  unitMatchers: PhraseMatcher[];
  /** The question's subject words, without its unit, asking words and stance verbs ("How many years have you been married?" → married). */
  topic: PhraseMatcher;
  descending: boolean;
  negative: boolean;
  /** The question asks what the person prefers or how they judge something ("Would you rather…", "Which do you enjoy more?"). */
  evaluative: boolean;
}

const preparedCache = new Map<string, Prepared>();
const PREPARED_CACHE = 1000;

/** The question read once (its options' vectors, its unit, its scale's direction), remembered by content. */
function prepare(q: Question): Prepared {
  const key = JSON.stringify([q.type, q.text, q.options ?? [], q.scale ?? null]);
  const cached = preparedCache.get(key);
  if (cached) return cached;
  const options = (q.options ?? []).map((text) => {
    const t = text.trim();
    const kind = YES.test(t) ? 'yes' : NO.test(t) ? 'no' : BOTH.test(t) ? 'both' : 'words';
    return { text, kind, matcher: new PhraseMatcher(kind === 'words' ? t : '') } as const;
  });
  const listed = options.filter((o) => o.kind === 'words').map((o) => o.text);
  const unit = askedUnit(q.text);
  const prepared: Prepared = {
    // The options are the context, the question the ask (memory/scenario.ts).
    scenario: listed.length > 0 && (q.type === 'single' || q.type === 'multiple') ? `${listed.join(', ')}. ${q.text}` : q.text,
    subject: new PhraseMatcher(q.text),
    options,
    unit,
    unitMatchers: unit.words.slice(0, 1).map((w) => new PhraseMatcher(w)),
    topic: new PhraseMatcher(topicOf(q.text, unit)),
    descending: labelsDescend(q.scale?.labels),
    negative: asksNegatively(q.text),
    evaluative: EVALUATIVE_RE.test(q.text),
  };
  if (preparedCache.size >= PREPARED_CACHE) preparedCache.clear();
  preparedCache.set(key, prepared);
  return prepared;
}

/** A question about the person's preference or judgement rather than a fact. */
const EVALUATIVE_RE = /\b(?:prefer\w*|rather|favou?rite|like|love|enjoy|better|best|worse|worst|want|should|choose|opinion|feel|think|believe|focus|aim|important)\b/i;

/** Words that frame a question rather than name its subject: "how many", its unit, a stance verb. */
const FRAMING_RE = /\b(?:how\s+(?:many|much|long|old)|enjoy|like|love|hate|dislike|prefer|care|value|agree|disagree|important|happy|satisfied|interested|excited|worried|fond|feel)\b/gi;

/** The question's subject words: "How much do you enjoy growing vegetables?" → growing vegetables. */
function topicOf(text: string, unit: AskedUnit): string {
  const units = [...unit.words, ...TIME_UNITS].map((w) => w.replace(/[^a-z'-]/g, '')).filter(Boolean);
  return text.replace(FRAMING_RE, ' ').replace(new RegExp(`\\b(?:${units.join('|')})\\b`, 'gi'), ' ');
}

/** The answer of `mind` to a typed question. */
export function answerTyped(mind: MindMemory, question: Question, t: Readonly<TypedThresholds> = TYPED_THRESHOLDS): TypedAnswer {
  const p = prepare(question);
  const found = questionPassages(mind, p.scenario);
  if (found.passages.length === 0 || found.confidence < t.declineBelow) return noEvidence(Math.min(found.confidence, t.declineBelow));
  switch (question.type) {
    case 'single':
    case 'multiple':
      return choose(mind, question, p, found, t);
    case 'likert':
      return likert(mind, question, p, found, t);
    case 'number':
      return numberAnswer(mind, question, p, found);
    case 'open':
      return answered(mind, found, found.passages[0]?.[0] ?? -1, [], null, found.confidence);
  }
}

function noEvidence(confidence: number, saying = NO_EVIDENCE_SAYING): TypedAnswer {
  return { status: 'no_evidence', choices: [], value: null, saying, confidence: round3(confidence), evidence: [] };
}

/** An answer resting on the passage that holds `decisive` (its saying), the other passages read after it. */
function answered(mind: MindMemory, found: QuestionPassages, decisive: number, choices: string[], value: number | null, confidence: number): TypedAnswer {
  const at = Math.max(0, found.passages.findIndex((docs) => docs.includes(decisive)));
  const ordered = [found.passages[at] ?? [], ...found.passages.filter((_, i) => i !== at)].filter((docs) => docs.length > 0);
  const saying = (ordered[0] ?? []).map((d) => tidy(mind.memories[d]?.text ?? '')).join(' ');
  const evidence = ordered.map((docs) => passageEvidence(mind, found.relevance, docs));
  return { status: 'answered', choices, value, saying, confidence: round3(Math.min(0.95, Math.max(0, confidence))), evidence };
}

/** Sentences read, heaviest first (ties in doc order). */
const readDocs = (found: QuestionPassages): Array<[number, number]> => [...found.weight].sort((a, b) => b[1] - a[1] || a[0] - b[0]);

interface Support {
  text: string;
  score: number;
  doc: number;
}

/** single/multiple: a sentence whose stance marks an option as set aside ("X instead of Y", "I never…") counts for Y this much. */
const SET_ASIDE = 0.5;
/** single/multiple, a question of preference: a sentence saying what the person prefers or enjoys counts this much more. */
const PREFERS = 1.3;

/**
 * Each option's support: its best sentence's weight × how well that sentence (or it with the
 * sentence before it in the same answer, for an option said across two) says the option × the
 * sentence's stance toward it (`stanceToward`). "yes"/"no": the sentences that address the
 * question, without or with a negation.
 */
function supportOf(mind: MindMemory, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): Support[] {
  const docs = readDocs(found);
  const subject = new Map(docs.map(([d]) => [d, p.subject.match(mind, d)]));
  const scored = p.options.map((o): Support => {
    let score = 0;
    let doc = -1;
    const consider = (d: number, s: number): void => {
      if (s > score) [score, doc] = [s, d];
    };
    if (o.kind === 'words') {
      const words = new Map(docs.map(([d]) => [d, o.matcher.wordMatches(mind, d)]));
      for (const [d, w] of docs) {
        const own = words.get(d) ?? [];
        const alone = o.matcher.score(own);
        // An option said across two sentences of one answer ("Remote, without question. I've worked from home…").
        const prev = mind.answerFirst[d - 1] === mind.answerFirst[d] ? words.get(d - 1) : undefined;
        const joined = prev ? o.matcher.score(own.map((x, i) => Math.max(x, prev[i] ?? 0))) : 0;
        if (joined > alone) consider(d, w * joined * Math.max(stanceToward(mind, d, o.matcher, p.evaluative), stanceToward(mind, d - 1, o.matcher, p.evaluative)));
        else if (alone > 0) consider(d, w * alone * stanceToward(mind, d, o.matcher, p.evaluative));
      }
    } else if (o.kind === 'yes' || o.kind === 'no') {
      for (const [d, w] of docs) if ((o.kind === 'no') === isNegated(mind.memories[d]?.text ?? '')) consider(d, w * (subject.get(d) ?? 0));
    }
    return { text: o.text, score, doc };
  });
  // "both": the two best other options, each supported.
  const others = scored.filter((_, i) => p.options[i]?.kind !== 'both').sort((a, b) => b.score - a.score);
  const [first, second] = others;
  p.options.forEach((o, i) => {
    if (o.kind === 'both' && first && second && second.score >= t.optionSupport) scored[i] = { text: o.text, score: second.score + t.optionMargin * 1.5, doc: second.doc };
  });
  return scored;
}

/** A sentence that says what the person prefers or enjoys ("I'd rather…", "I love…", "without question"). */
const PREFERS_RE = /\b(?:(?:I'd|I\s+would)\s+(?:much\s+)?rather|prefer\w*|I\s+(?:really\s+)?(?:love|enjoy|like)|favou?rite|without\s+(?:a\s+)?(?:question|doubt))\b/i;

/** Per mind, each sentence's stance parts (memory/stance.ts) with their words, read once. */
const partsCache = new WeakMap<MindMemory, Map<number, Array<{ words: SentenceWord[]; polarity: number }>>>();

function partsOf(mind: MindMemory, doc: number): Array<{ words: SentenceWord[]; polarity: number }> {
  let perMind = partsCache.get(mind);
  if (!perMind) partsCache.set(mind, (perMind = new Map()));
  let parts = perMind.get(doc);
  if (!parts) {
    parts = stanceParts(mind.memories[doc]?.text ?? '').map((x) => ({ words: wordsOfText(x.text, mind.semantic !== null), polarity: x.polarity }));
    perMind.set(doc, parts);
  }
  return parts;
}

/**
 * How a sentence that names an option stands toward it, as a multiplier of its support: the
 * option said on the side a contrast sets aside, or under a negation (memory/stance.ts), and not
 * more on a preferred side → SET_ASIDE; for a question of preference, a sentence saying what the
 * person prefers or enjoys → PREFERS. Else 1.
 */
function stanceToward(mind: MindMemory, doc: number, matcher: PhraseMatcher, evaluative: boolean): number {
  let preferred = 0;
  let setAside = 0;
  for (const part of partsOf(mind, doc)) {
    const m = matcher.score(matcher.wordMatchesIn(part.words));
    if (part.polarity > 0) preferred = Math.max(preferred, m);
    else setAside = Math.max(setAside, m);
  }
  if (setAside > 0 && setAside >= preferred) return SET_ASIDE;
  return evaluative && PREFERS_RE.test(mind.memories[doc]?.text ?? '') ? PREFERS : 1;
}

function choose(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): TypedAnswer {
  const support = supportOf(mind, p, found, t);
  const ranked = [...support].sort((a, b) => b.score - a.score || support.indexOf(a) - support.indexOf(b));
  const best = ranked[0];
  if (!best) return noEvidence(0);
  if (q.type === 'multiple') {
    const chosen = support.filter((s) => s.score >= t.multipleSupport && s.score >= best.score * MULTIPLE_SHARE);
    if (chosen.length === 0) return noEvidence(found.confidence * best.score, UNDECIDED_SAYING);
    const clarity = chosen.reduce((s, c) => s + c.score, 0) / chosen.length;
    return answered(mind, found, best.doc, chosen.map((c) => c.text), null, found.confidence * Math.min(1, clarity + 0.2));
  }
  const margin = best.score - (ranked[1]?.score ?? 0);
  if (best.score < t.optionSupport || margin < t.optionMargin) return noEvidence(found.confidence * best.score * Math.min(1, margin / t.optionMargin), UNDECIDED_SAYING);
  const clarity = Math.min(1, 0.5 + (0.5 * (margin - t.optionMargin)) / t.optionMargin);
  return answered(mind, found, best.doc, [best.text], null, found.confidence * clarity);
}

function likert(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): TypedAnswer {
  const scale = q.scale ?? { min: 1, max: 5 };
  let sum = 0;
  let total = 0;
  let decisive = -1;
  let strongest = 0;
  for (const [d, w] of readDocs(found)) {
    const addresses = (p.topic.empty ? p.subject : p.topic).match(mind, d);
    if (addresses < ADDRESSES) continue;
    const s = sentenceSentiment(mind, d);
    // The sentences that say most of the question's words count most.
    sum += w * addresses * addresses * s;
    total += w * addresses * addresses;
    if (Math.abs(w * addresses * s) > strongest) [strongest, decisive] = [Math.abs(w * addresses * s), d];
  }
  const stance = total > 0 ? sum / total : 0;
  if (total === 0 || Math.abs(stance) < t.minStance || decisive < 0) return noEvidence(found.confidence * Math.min(1, Math.abs(stance) / t.minStance), UNDECIDED_SAYING);
  const oriented = (p.descending ? -1 : 1) * (p.negative ? -1 : 1) * stance;
  const half = (scale.max - scale.min) / 2;
  const value = Math.round(Math.min(scale.max, Math.max(scale.min, scale.min + half + oriented * LIKERT_GAIN * half)));
  return answered(mind, found, decisive, [], value, found.confidence * Math.min(1, 0.5 + Math.abs(stance)));
}

const YEAR_LIKE = (n: StatedNumber): boolean => n.digits && Number.isInteger(n.value) && n.value >= 1900 && n.value <= 2100;

/** Whether a stated number is what the question counts. */
function fits(n: StatedNumber, p: Prepared, text: string): boolean {
  const u = p.unit;
  if (u.year) return YEAR_LIKE(n);
  if (u.age) return (n.after[0] === 'years' && n.after[1] === 'old') || /\b(?:was|aged?|age of|i'm|turned)\s*$/i.test(text.slice(Math.max(0, n.at - 12), n.at));
  if (u.money) return n.money;
  const unit = n.after[0];
  if (p.unitMatchers.length > 0) {
    if (!unit) return false;
    const probe = new PhraseMatcher(n.after.slice(0, 2).join(' '));
    return p.unitMatchers.some((m) => probe.words.some((w) => m.words.some((v) => v.stem === w.stem || (!!v.vector && !!w.vector && cos(v.vector, w.vector) >= UNIT_COSINE))));
  }
  if (u.duration) return unit !== undefined && TIME_UNITS.includes(unit);
  return !YEAR_LIKE(n);
}

function cos(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d]! * b[d]!;
  return s;
}

function numberAnswer(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages): TypedAnswer {
  const min = q.scale?.min ?? -Infinity;
  const max = q.scale?.max ?? Infinity;
  for (const [d, w] of readDocs(found)) {
    // The sentence must speak of what is asked (not only name a unit): "married" for "How many years have you been married?".
    if (!p.topic.empty && p.topic.match(mind, d) < NUMBER_TOPIC) continue;
    const text = mind.memories[d]?.text ?? '';
    const n = statedNumbers(text).find((x) => x.value >= min && x.value <= max && fits(x, p, text));
    if (n) return answered(mind, found, d, [], n.value, found.confidence * (0.6 + 0.4 * w));
  }
  return noEvidence(found.confidence * 0.5, UNDECIDED_SAYING);
}

/** The text retrieval searches for a question: the question as the ask, its options (not yes/no/both) as context. */
export const questionScenario = (q: Question): string => prepare(q).scenario;
