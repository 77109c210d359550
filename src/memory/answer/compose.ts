/**
 * Answer stage, whole: from the search's result, what an answer says and on what evidence. The
 * engines only word it (engines/grounded.ts turns it into text).
 *
 * - The decline, when the scenario is off-topic (P(on-topic) below the fitted threshold) or nothing
 *   was ranked.
 * - The saying: the best answer's passage at the person's usual answer length (quotedPassage), grown
 *   to whole sentences, its greetings and self-introductions left out unless the scenario asks for
 *   one (then the next answer's, if the best one is nothing else).
 * - The evidence: that passage, the next answers' passages (MORE_ANSWERS; in a monologue, where the
 *   whole talk is one answer, the next best passages instead), each grown to whole sentences, then
 *   every other sentence a field quotes.
 * - The other fields' sentences (fields.ts), chosen among the sentences of the evidence and of the best
 *   FIELD_PASSAGES passages that are on the scenario's subject (one of its words said, or a passage
 *   the ranking finds at least FIELD_ODDS as likely as the best), and the rest of the saying's own
 *   answer (a passage ranked near the top can still be about something else).
 */
import type { MindMemory } from '../mind-memory.ts';
import type { Ranking, RankedPassage } from '../search/rank.ts';
import type { SearchResult } from '../search/search.ts';
import { asksIntroduction, isGreeting } from '../text/readings.ts';
import { FIELD_ODDS, FIELD_PASSAGES, MORE_ANSWERS, RUNNER_UP_WORDS, SAYING_LENGTH_FACTOR, SAYING_MAX_WORDS, SAYING_MIN_WORDS } from '../tuning.ts';
import { candidatesOf, stemsOf } from './candidates.ts';
import { chooseFields, type FieldChoice } from './fields.ts';
import { docRelevance, quotedPassage } from './passages.ts';
import { sentenceText, spokenSentences, wholeSentences } from './spoken-sentences.ts';

export type { Candidate } from './candidates.ts';
export type { Tone } from './fields.ts';

/** How many words of the person's own turn `saying` quotes for this mind (tuning.ts). */
export const sayingWords = (mind: MindMemory): number =>
  Math.min(SAYING_MAX_WORDS, Math.max(SAYING_MIN_WORDS, mind.typicalAnswerWords * SAYING_LENGTH_FACTOR));

export interface Declined {
  declined: true;
  /** The calibrated confidence (0 when the mind has nothing to rank). */
  confidence: number;
}

export interface ComposedAnswer extends FieldChoice {
  declined: false;
  confidence: number;
  /** The saying's docs, in order: whole sentences, no greeting unless asked. */
  saying: number[];
  /** The evidence, best first: contiguous passages (doc numbers in order). */
  passages: number[][];
  /** Each doc's relevance as the evidence reports it. */
  relevance: Map<number, number>;
}

export type Composed = Declined | ComposedAnswer;

const span = (p: Pick<RankedPassage, 'first' | 'last'>): number[] => Array.from({ length: p.last - p.first + 1 }, (_, i) => p.first + i);

interface Said {
  /** The evidence passage the saying comes from, and the saying's docs within it. */
  passage: number[];
  saying: number[];
  /** Which answer of the ranking it is. */
  answer: number;
}

/** The saying: the first of the best answers whose passage says more than a greeting (the best one's, whatever it says, if none does). */
function sayingOf(mind: MindMemory, ranking: Ranking, introduction: boolean): Said {
  const words = sayingWords(mind);
  let first: Said | null = null;
  for (const [answer, best] of ranking.answers.slice(0, 1 + MORE_ANSWERS).entries()) {
    const passage = wholeSentences(mind, quotedPassage(mind, best, words));
    const kept = spokenSentences(mind, passage).filter((s) => introduction || !isGreeting(sentenceText(mind, s)));
    const said = { passage, saying: kept.flat(), answer };
    if (kept.length > 0) return said;
    first ??= { ...said, saying: passage };
  }
  return first ?? { passage: [], saying: [], answer: 0 };
}

/** The evidence passages: the saying's, the next answers', and in a monologue the next best passages apart from those. */
function evidencePassages(mind: MindMemory, ranking: Ranking, said: Said): number[][] {
  const out = [said.passage];
  const shown = new Set(said.passage);
  const add = (best: RankedPassage): void => {
    const docs = wholeSentences(mind, quotedPassage(mind, best, RUNNER_UP_WORDS));
    if (docs.some((d) => shown.has(d))) return;
    out.push(docs);
    for (const d of docs) shown.add(d);
  };
  for (const [i, best] of ranking.answers.slice(0, 1 + MORE_ANSWERS).entries()) if (i !== said.answer && out.length <= MORE_ANSWERS) add(best);
  for (const best of ranking.passages.slice(0, FIELD_PASSAGES)) if (out.length <= MORE_ANSWERS) add(best);
  return out;
}

/** The answer to a scenario from its search result, or the decline (`found` null: the mind has no passages). */
export function composeAnswer(mind: MindMemory, found: SearchResult | null, declineBelow: number): Composed {
  if (!found) return { declined: true, confidence: 0 };
  const { ranking, confidence, onTopic } = found;
  if (ranking.answers.length === 0 || onTopic < declineBelow) return { declined: true, confidence };
  const said = sayingOf(mind, ranking, asksIntroduction(`${found.query.context} ${found.query.ask}`));
  const passages = evidencePassages(mind, ranking, said);
  const saying = new Set(said.saying);
  const read = [...passages.flat(), ...ranking.passages.slice(0, FIELD_PASSAGES).flatMap((p) => wholeSentences(mind, span(p)))];
  // What the fields may quote, among the sentences of the evidence and of the best FIELD_PASSAGES
  // passages: those on the subject, by the scenario's words said or by the ranking's odds, and the
  // rest of the saying's own answer. A runner-up answer is the next best the person gave, not always
  // one on the subject ("Leaving a stable job at a bank" is no feeling about hiring a self-taught engineer).
  const answer = new Set(said.saying.map((d) => mind.answerFirst[d]));
  const pool = candidatesOf(mind, found, read.filter((d) => !saying.has(d))).filter(
    (c) => c.overlap > 0 || c.odds >= FIELD_ODDS || c.docs.some((d) => answer.has(mind.answerFirst[d])),
  );
  const fields = chooseFields(pool, candidatesOf(mind, found, said.saying), stemsOf(mind, said.saying), said.saying.length === mind.size);
  // Every sentence a field quotes is in the evidence: those outside its passages follow them, one item each.
  const shown = new Set(passages.flat());
  const more: number[][] = [];
  for (const c of [...(fields.view ? [fields.view] : []), ...fields.reasons, ...fields.acting, ...fields.feeling]) {
    if (c.docs.some((d) => shown.has(d))) continue;
    more.push(c.docs);
    for (const d of c.docs) shown.add(d);
  }
  return { declined: false, confidence, saying: said.saying, ...fields, passages: [...passages, ...more], relevance: docRelevance(ranking) };
}
