/** likert and number questions, offline (grounded-questions.ts): the stance of the sentences that address the question, and the numbers stated. */
import type { MindMemory } from '../memory/mind-memory.ts';
import { statedNumbers, TIME_UNITS, type StatedNumber } from '../memory/numbers.ts';
import { PhraseMatcher } from '../memory/answer/phrase-matcher.ts';
import type { QuestionPassages } from '../memory/answer/question-passages.ts';
import { clauseSentiment } from './grounded-yes-no.ts';
import {
  answered,
  LIKERT_CLARITY,
  noEvidence,
  NUMBER_CLARITY,
  readDocs,
  UNDECIDED_SAYING,
  UNDECIDED_SHARE,
  type Prepared,
  type TypedThresholds,
} from './grounded-question-parts.ts';
import type { Question, TypedAnswer } from './questions.ts';


/** likert: sentiment (mostly within ±0.5 for spoken sentences) × this spans the scale. */
const LIKERT_GAIN = 3;


export function likert(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): TypedAnswer {
  const scale = q.scale ?? { min: 1, max: 5 };
  let sum = 0;
  let total = 0;
  let decisive = -1;
  const about = p.topic.empty ? p.subject : p.topic;
  const read: Array<{ d: number; pull: number }> = [];
  for (const [d, w] of readDocs(found)) {
    const addresses = about.match(mind, d);
    if (addresses < t.topicShare) continue;
    // The clause that speaks of the subject ("I never drink decaf and I think pod machines are a waste…": the second).
    const s = clauseSentiment(mind, d, about.stems, t.minStance);
    // The sentences that say most of the question's words count most.
    sum += w * addresses * addresses * s;
    total += w * addresses * addresses;
    read.push({ d, pull: w * addresses * s });
  }
  const stance = total > 0 ? sum / total : 0;
  // The passage quoted is the one that pulls hardest the way the answer goes: never one that says the opposite.
  let strongest = 0;
  for (const { d, pull } of read) if (pull * stance > 0 && Math.abs(pull) > strongest) [strongest, decisive] = [Math.abs(pull), d];
  if (total === 0 || Math.abs(stance) < t.minStance || decisive < 0) return noEvidence(found.confidence * Math.min(1, Math.abs(stance) / t.minStance), UNDECIDED_SAYING);
  const oriented = (p.descending ? -1 : 1) * (p.negative ? -1 : 1) * stance;
  const half = (scale.max - scale.min) / 2;
  const value = Math.round(Math.min(scale.max, Math.max(scale.min, scale.min + half + oriented * LIKERT_GAIN * half)));
  return answered(mind, found, decisive, [], value, found.confidence * Math.min(1, LIKERT_CLARITY + Math.abs(stance)));
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
    return p.unitMatchers.some((m) => probe.stems.some((w) => m.stems.includes(w)));
  }
  if (u.duration) return unit !== undefined && TIME_UNITS.includes(unit);
  return !YEAR_LIKE(n);
}



export function numberAnswer(mind: MindMemory, q: Question, p: Prepared, found: QuestionPassages, t: Readonly<TypedThresholds>): TypedAnswer {
  const min = q.scale?.min ?? -Infinity;
  const max = q.scale?.max ?? Infinity;
  for (const [d, w] of readDocs(found)) {
    // The sentence must speak of what is asked (not only name a unit): "married" for "How many years have you been married?".
    if (!p.topic.empty && p.topic.match(mind, d) < t.topicShare && !p.topic.meant(mind, found.passageOf.get(d))) continue;
    const text = mind.memories[d]?.text ?? '';
    const n = statedNumbers(text).find((x) => x.value >= min && x.value <= max && fits(x, p, text));
    if (n) return answered(mind, found, d, [], n.value, found.confidence * (NUMBER_CLARITY[0] + NUMBER_CLARITY[1] * w));
  }
  return noEvidence(found.confidence * UNDECIDED_SHARE, UNDECIDED_SAYING);
}
