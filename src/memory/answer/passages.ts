/**
 * Answer stage: the passages an answer quotes, from a ranking: for each of the best answers, a
 * contiguous stretch of about `words` around its best passage (MindMemory.passage keeps the window
 * that holds the most of that passage, starting at it when it can). Both engines use these, so the
 * LLM is shown what the offline engine would quote.
 */
import type { MindMemory } from '../mind-memory.ts';
import type { Ranking, RankedPassage } from '../search/rank.ts';
import { unitScore } from './scores.ts';

/** The docs (in order) to quote for one ranked answer. */
export function quotedPassage(mind: MindMemory, best: RankedPassage, words: number): number[] {
  return mind.passage(best.first, words, (doc) => (doc >= best.first && doc <= best.last ? 1 : 0));
}

/** The quoted passages of the first `count` answers, each about `words` long. */
export function answerPassages(mind: MindMemory, ranking: Ranking, count: number, words: number): number[][] {
  return ranking.answers.slice(0, count).map((a) => quotedPassage(mind, a, words));
}

/** Each doc's relevance as evidence reports it: the encoder's cosine of its passage with the ask, in [0, 1]. */
export function docRelevance(ranking: Ranking): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of ranking.passages) {
    const c = unitScore(ranking.features.cosAsk[p.passage] ?? 0);
    for (let d = p.first; d <= p.last; d++) out.set(d, c);
  }
  return out;
}
