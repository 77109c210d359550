/** single and multiple choice, offline (grounded-questions.ts): an option's support by what the person says of it and how they stand toward it. */
import type { MindMemory } from '../memory/mind-memory.ts';
import { stemsOfText, type PhraseMatcher } from '../memory/answer/phrase-matcher.ts';
import type { QuestionPassages } from '../memory/answer/question-passages.ts';
import { stanceParts } from '../memory/stance.ts';
import {
  answered,
  BOTH_LEAD,
  LEAST_CLARITY,
  MULTIPLE_CLARITY_BONUS,
  MULTIPLE_SHARE,
  noEvidence,
  PREFERS,
  readDocs,
  SET_ASIDE,
  UNDECIDED_SAYING,
  type Prepared,
  type TypedThresholds,
} from './grounded-question-parts.ts';
import type { Question, TypedAnswer } from './questions.ts';
import { yesNoOf } from './grounded-yes-no.ts';



interface Support {
  text: string;
  score: number;
  doc: number;
}




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
      // Said in no sentence read: the encoder may still be sure a passage means it (a paraphrase). A
      // passage is the unit of meaning, so its best-weighted sentence stands for it, without a stance.
      if (score === 0) for (const [d, w] of docs) if (w > score && o.matcher.meant(mind, found.passageOf.get(d))) consider(d, w);
    } else if (o.kind === 'yes' || o.kind === 'no') {
      const wanted = o.kind === 'yes' ? 1 : -1;
      for (const [d, w] of docs) {
        const said = subject.get(d) ?? 0;
        if (said > 0 && yesNoOf(mind, d, p, t.minStance, t.ssrWeight, found.passageOf.get(d)) === wanted) consider(d, w * said);
      }
    }
    return { text: o.text, score, doc };
  });
  // "both": the two best other options, each supported.
  const others = scored.filter((_, i) => p.options[i]?.kind !== 'both').sort((a, b) => b.score - a.score);
  const [first, second] = others;
  p.options.forEach((o, i) => {
    if (o.kind === 'both' && first && second && second.score >= t.optionSupport) scored[i] = { text: o.text, score: second.score + t.optionMargin * BOTH_LEAD, doc: second.doc };
  });
  return scored;
}

/** A sentence that says what the person prefers or enjoys ("I'd rather…", "I love…", "without question"). */
const PREFERS_RE = /\b(?:(?:I'd|I\s+would)\s+(?:much\s+)?rather|prefer\w*|I\s+(?:really\s+)?(?:love|enjoy|like)|favou?rite|without\s+(?:a\s+)?(?:question|doubt))\b/i;

/** Per mind, each sentence's stance parts (memory/stance.ts) with their stems, read once. */
const partsCache = new WeakMap<MindMemory, Map<number, Array<{ stems: ReadonlySet<string>; polarity: number }>>>();

function partsOf(mind: MindMemory, doc: number): Array<{ stems: ReadonlySet<string>; polarity: number }> {
  let perMind = partsCache.get(mind);
  if (!perMind) partsCache.set(mind, (perMind = new Map()));
  let parts = perMind.get(doc);
  if (!parts) {
    parts = stanceParts(mind.memories[doc]?.text ?? '').map((x) => ({ stems: stemsOfText(x.text), polarity: x.polarity }));
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
    const m = matcher.score(matcher.wordMatchesIn(part.stems));
    if (part.polarity > 0) preferred = Math.max(preferred, m);
    else setAside = Math.max(setAside, m);
  }
  if (setAside > 0 && setAside >= preferred) return SET_ASIDE;
  return evaluative && PREFERS_RE.test(mind.memories[doc]?.text ?? '') ? PREFERS : 1;
}


export function choose(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): TypedAnswer {
  const support = supportOf(mind, p, found, t);
  const ranked = [...support].sort((a, b) => b.score - a.score || support.indexOf(a) - support.indexOf(b));
  const best = ranked[0];
  if (!best) return noEvidence(0);
  if (q.type === 'multiple') {
    const chosen = support.filter((s) => s.score >= t.optionSupport && s.score >= best.score * MULTIPLE_SHARE);
    if (chosen.length === 0) return noEvidence(found.confidence * best.score, UNDECIDED_SAYING);
    const clarity = chosen.reduce((s, c) => s + c.score, 0) / chosen.length;
    return answered(mind, found, best.doc, chosen.map((c) => c.text), null, found.confidence * Math.min(1, clarity + MULTIPLE_CLARITY_BONUS));
  }
  const second = ranked[1];
  const margin = best.score - (second?.score ?? 0);
  // yes/no has its own thresholds, fitted on the corpus; options in words keep theirs. Nothing said of any option is never an answer.
  const yesNo = p.options.some((o) => o.kind === 'yes') && p.options.some((o) => o.kind === 'no');
  t = yesNo ? { ...t, optionSupport: t.yesNoSupport, optionMargin: t.yesNoMargin } : t;
  if (best.score <= 0) return noEvidence(0, UNDECIDED_SAYING);
  if (best.score >= t.optionSupport && margin < t.optionMargin && second) {
    // Their words support two options alike: the encoder decides when it is sure the passages mean one and not the other.
    const winner = meantAlone(mind, p, found, best, second);
    if (winner) return answered(mind, found, winner.doc, [winner.text], null, found.confidence * LEAST_CLARITY);
  }
  if (best.score < t.optionSupport || margin < t.optionMargin) return noEvidence(found.confidence * best.score * Math.min(1, margin / t.optionMargin), UNDECIDED_SAYING);
  const clarity = Math.min(1, LEAST_CLARITY * (1 + (margin - t.optionMargin) / t.optionMargin));
  return answered(mind, found, best.doc, [best.text], null, found.confidence * clarity);
}

/** Of two options their words support alike, the one the encoder is sure their passages mean while it is not sure of the other; else null. */
function meantAlone(mind: MindMemory, p: Prepared, found: QuestionPassages, a: Support, b: Support): Support | null {
  const matcher = (x: Support) => p.options.find((o) => o.text === x.text)?.matcher;
  const means = (x: Support) => [a.doc, b.doc].some((d) => matcher(x)?.meant(mind, found.passageOf.get(d)) ?? false);
  const [ma, mb] = [means(a), means(b)];
  return ma && !mb ? a : mb && !ma ? b : null;
}
