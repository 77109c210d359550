/**
 * Baselines of the held-out evaluation: for each held-out question a text that is scored like the
 * engine's answer (content F1 and discrimination). Every baseline that reads the question reads the
 * reworded one the engine is asked.
 */
import { Bm25Index } from '../src/memory/bm25.ts';
import { contentF1, termsOf } from './metrics.ts';
import type { Interview, QaPair } from './interviews.ts';

export const BASELINES = ['typical', 'bm25', 'random', 'other', 'oracle'] as const;
export type BaselineName = (typeof BASELINES)[number];
export const BASELINE_LABELS: Record<BaselineName, string> = {
  typical: 'typical',
  bm25: 'BM25',
  random: 'random',
  other: 'other-person',
  oracle: 'oracle',
};

/** The person's turns that count as their answers for the baselines: at least this many words. */
export const MIN_KEPT_WORDS = 25;
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** The guest's kept answers: every turn of theirs of ≥ 25 words that is not a held-out answer. */
export function keptAnswers(interview: Interview, heldOut: readonly QaPair[]): string[] {
  const hidden = new Set(heldOut.map((p) => p.turn + 1));
  return interview.turns.filter((t, i) => t.speaker === interview.guest && !hidden.has(i) && wordCount(t.text) >= MIN_KEPT_WORDS).map((t) => t.text);
}

/** The most typical kept answer: the highest mean content F1 to the person's other kept answers (question-agnostic). */
export function typicalAnswer(kept: readonly string[]): string {
  let best = { score: -1, text: kept[0] ?? '' };
  for (const [i, a] of kept.entries()) {
    let sum = 0;
    for (const [j, b] of kept.entries()) if (i !== j) sum += contentF1(a, b);
    const score = kept.length > 1 ? sum / (kept.length - 1) : 0;
    if (score > best.score) best = { score, text: a };
  }
  return best.text;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter === 0 ? 0 : inter / (a.size + b.size - inter);
}

/** The answer another guest gave to the question nearest this one (stem Jaccard), in another interview. */
function otherPersonAnswer(question: string, own: Interview, all: readonly Interview[]): string {
  const q = new Set(termsOf(question));
  let best = { score: -1, answer: '' };
  for (const other of all) {
    if (other === own) continue;
    for (const p of other.pairs) {
      const score = jaccard(q, new Set(termsOf(p.question)));
      if (score > best.score) best = { score, answer: p.answer };
    }
  }
  return best.answer;
}

/** The kept answer closest (content F1) to the real one: an oracle pick, the most a quoting engine can expect. */
function oracleAnswer(kept: readonly string[], real: string): string {
  let best = { score: -1, text: '' };
  for (const k of kept) {
    const score = contentF1(k, real);
    if (score > best.score) best = { score, text: k };
  }
  return best.text;
}

export interface BaselineInput {
  interview: Interview;
  heldOut: readonly QaPair[];
  /** The reworded questions the engine is asked, one per held-out pair. */
  asked: readonly string[];
  all: readonly Interview[];
  random: () => number;
}

/** The five baseline texts for every held-out question of one interview. */
export function baselineTexts({ interview, heldOut, asked, all, random }: BaselineInput): Record<BaselineName, string>[] {
  const kept = keptAnswers(interview, heldOut);
  const typical = typicalAnswer(kept);
  const hiddenTurns = new Set(heldOut.map((p) => p.turn));
  const keptPairs = interview.pairs.filter((p) => !hiddenTurns.has(p.turn));
  // Plain BM25 (k1 1.2, b 0.75) over the kept questions: the project's index with only the text field filled.
  const keptQuestions = Bm25Index.build(
    keptPairs.map((p, seq) => ({ snapshotId: '', seq, text: p.question, question: null, speaker: null, start: null, end: null, page: null })),
  );
  return heldOut.map((pair, i) => {
    const question = asked[i] ?? pair.question;
    const nearest = keptQuestions.search(question, 1)[0]?.doc ?? -1;
    return {
      typical,
      // Naive retrieval: the person's answer to the most similar kept question; the typical answer when none shares a word.
      bm25: keptPairs[nearest]?.answer ?? typical,
      random: kept[Math.floor(random() * kept.length)] ?? '',
      other: otherPersonAnswer(question, interview, all),
      oracle: oracleAnswer(kept, pair.answer),
    };
  });
}
