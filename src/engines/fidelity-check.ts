/**
 * Leave-some-out self-check of a snapshot: hold out some of the person's answers, answer their
 * questions with the offline engine (the learned search over the rest of the snapshot's passages,
 * with their stored vectors) and score the simulated `saying` against the real answers, next to a
 * baseline (another answer of the same person, chosen with a fixed seed). Runs in an analysis
 * thread, after the passages are embedded.
 */
import { qaPairsOf } from '../memory/profile.ts';
import { scoreAnswer, tokenF1 } from '../memory/fidelity.ts';
import { terms } from '../memory/sentences.ts';
import { roundScore as round } from '../memory/answer/scores.ts';
import { seededRandom } from '../memory/seeded-random.ts';
import type { Memory } from '../memory/types.ts';
import type { PassageSpan } from '../memory/build/passages.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import { pickVectors, type QuantisedVectors } from '../memory/vector-math.ts';
import { GroundedEngine } from './grounded.ts';
import { MindMemory } from '../memory/mind-memory.ts';

/** Fewer Q/A pairs than this: no self-check (null). */
export const MIN_FIDELITY_PAIRS = 8;
const MAX_HELD_OUT = 30;
const MIN_ANSWER_WORDS = 8;

export interface Fidelity {
  pairs: number;
  heldOut: number;
  tokenF1: number;
  rougeL: number;
  baselineF1: number;
  /** Content-word F1 (stems, stop words removed): the fidelity metric of `npm run eval`; token F1 rewards any answer in the person's everyday words. */
  contentF1: number;
  baselineContentF1: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/** The snapshot's passages and their stored vectors (build/passages.ts), as the analysis thread made them. */
export interface EmbeddedPassages {
  encoder: string;
  spans: PassageSpan[];
  vectors: QuantisedVectors;
}

export async function fidelityCheck(memories: readonly Memory[], passages: EmbeddedPassages, searcher: Searcher): Promise<Fidelity | null> {
  const pairs = qaPairsOf(memories).filter((p) => p.question.includes('?'));
  if (pairs.length < MIN_FIDELITY_PAIRS) return null;
  const textOf = (p: { firstSeq: number; lastSeq: number }) =>
    memories.slice(p.firstSeq, p.lastSeq + 1).map((m) => m.text).join(' ');
  // Every 4th pair with a substantial answer, at most MAX_HELD_OUT: deterministic and spread out.
  const step = Math.max(4, Math.ceil(pairs.length / MAX_HELD_OUT));
  const heldOut = pairs.filter((p, i) => i % step === step - 1 && textOf(p).split(' ').length >= MIN_ANSWER_WORDS);
  if (heldOut.length === 0) return null;
  const hidden = new Set(heldOut.flatMap((p) => Array.from({ length: p.lastSeq - p.firstSeq + 1 }, (_, k) => p.firstSeq + k)));
  const kept = memories.filter((m) => !hidden.has(m.seq)).map((m) => ({ ...m, snapshotId: 'self-check' }));
  const keptPairs = pairs.filter((p) => !heldOut.includes(p));
  // A passage lies within one answer: a held-out answer's passages go with it.
  const keptPassages = passages.spans.flatMap((span, i) => (hidden.has(span.first) ? [] : [i]));
  const snapshot = { snapshotId: 'self-check', encoder: passages.encoder, spans: keptPassages.map((i) => passages.spans[i] as PassageSpan), vectors: pickVectors(passages.vectors, keptPassages) };
  const memory = MindMemory.build('self-check', kept, [snapshot], passages.encoder);
  const engine = new GroundedEngine(searcher);
  const random = seededRandom(pairs.length);
  const scores: Array<{ tokenF1: number; rougeL: number; baseline: number; content: number; baselineContent: number }> = [];
  for (const p of heldOut) {
    const real = textOf(p);
    const { analysis } = await engine.simulate({ mindName: '', memory, scenario: p.question });
    const other = keptPairs[Math.floor(random() * keptPairs.length)];
    const otherText = other ? textOf(other) : '';
    scores.push({
      ...scoreAnswer(analysis.saying, real),
      baseline: other ? scoreAnswer(otherText, real).tokenF1 : 0,
      content: tokenF1(terms(analysis.saying), terms(real)),
      baselineContent: other ? tokenF1(terms(otherText), terms(real)) : 0,
    });
  }
  return {
    pairs: pairs.length,
    heldOut: heldOut.length,
    tokenF1: round(mean(scores.map((s) => s.tokenF1))),
    rougeL: round(mean(scores.map((s) => s.rougeL))),
    baselineF1: round(mean(scores.map((s) => s.baseline))),
    contentF1: round(mean(scores.map((s) => s.content))),
    baselineContentF1: round(mean(scores.map((s) => s.baselineContent))),
  };
}
