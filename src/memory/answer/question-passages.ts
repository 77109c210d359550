/**
 * Answer stage for typed questions (panels): what the person said that bears on a question, from the
 * same learned search as a simulate (the question as the ask, its options as the context).
 *
 * The passages read are those of the best QUESTION_ANSWERS answers, quoted as the engines quote
 * them. Each sentence read carries a weight: the ranking's probability of it relative to the best
 * passage of all, exp(score − best score), since the ranking was fitted with a softmax over a
 * person's passages (search/rank.ts). A sentence scores as the best passage holding it, with that
 * passage's BM25 features (its best sentences') replaced by the sentence's own, at their fitted
 * weights, and the weights are relative to the best sentence read (1): so within a passage the
 * sentence that says the question's words counts most, and a runner-up answer counts by how close
 * the ranking thought it was, with no hand-set weights.
 */
import type { MindMemory } from '../mind-memory.ts';
import type { RankingParams } from '../params/params.ts';
import { FEATURE_COUNT, FEATURES } from '../search/features.ts';
import type { SearchResult } from '../search/search.ts';
import { QUESTION_ANSWERS, RUNNER_UP_WORDS } from '../tuning.ts';
import { answerPassages, docRelevance } from './passages.ts';

export interface QuestionPassages {
  /** P(the question bears on what the person said) (answer/confidence.ts). */
  onTopic: number;
  /** The calibrated confidence that the best answer is the person's own answer to it. */
  confidence: number;
  /** The passages read, best first (doc numbers in order). */
  passages: number[][];
  /** Weight of each sentence read, in (0, 1], 1 for the best (see the module comment). */
  weight: Map<number, number>;
  /** The passage (index in the mind's PassageVectors) each sentence read belongs to. */
  passageOf: Map<number, number>;
  /** Each doc's relevance for the evidence scores (the encoder's cosine with the ask). */
  relevance: Map<number, number>;
}

const BM25_ASK = FEATURES.indexOf('bm25Ask');
const BM25_CONTEXT = FEATURES.indexOf('bm25Context');

export function questionPassages(mind: MindMemory, found: SearchResult, params: Pick<RankingParams, 'ranking'>): QuestionPassages {
  const { ranking } = found;
  const { rows, docBm25Ask, docBm25Context } = ranking.features;
  const [wAsk, wContext] = [params.ranking.weights[BM25_ASK] ?? 0, params.ranking.weights[BM25_CONTEXT] ?? 0];
  const passages = answerPassages(mind, ranking, QUESTION_ANSWERS, RUNNER_UP_WORDS);
  const read = new Set(passages.flat());
  const scores = new Map<number, number>();
  const passageOf = new Map<number, number>();
  for (const p of ranking.passages) {
    // Best first: the first passage holding a sentence gives its score and its vector.
    const row = p.passage * FEATURE_COUNT;
    for (let d = p.first; d <= p.last; d++) {
      if (!read.has(d) || scores.has(d)) continue;
      const own = wAsk * ((docBm25Ask[d] ?? 0) - (rows[row + BM25_ASK] ?? 0)) + wContext * ((docBm25Context[d] ?? 0) - (rows[row + BM25_CONTEXT] ?? 0));
      scores.set(d, p.score + own);
      passageOf.set(d, p.passage);
    }
  }
  const top = Math.max(...scores.values());
  const weight = new Map([...scores].map(([d, score]) => [d, Math.exp(score - top)]));
  return { onTopic: found.onTopic, confidence: found.confidence, passages, weight, passageOf, relevance: docRelevance(ranking) };
}
