/**
 * How close a simulated answer is to what the person really said: token F1 (bag of words, as in
 * SQuAD) and ROUGE-L F1 (longest common subsequence), over lower-cased words.
 */
import { words } from './sentences.ts';

export interface AnswerScore {
  tokenF1: number;
  rougeL: number;
}

function f1(overlap: number, predicted: number, reference: number): number {
  if (overlap === 0 || predicted === 0 || reference === 0) return 0;
  const p = overlap / predicted;
  const r = overlap / reference;
  return (2 * p * r) / (p + r);
}

export function tokenF1(predicted: readonly string[], reference: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const w of reference) counts.set(w, (counts.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const w of predicted) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(w, left - 1);
    }
  }
  return f1(overlap, predicted.length, reference.length);
}

/** LCS length with one rolling row: O(n·m) time, O(m) memory. */
function lcs(a: readonly string[], b: readonly string[]): number {
  const row = new Uint32Array(b.length + 1);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] ?? 0);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

export function rougeL(predicted: readonly string[], reference: readonly string[]): number {
  return f1(lcs(predicted, reference), predicted.length, reference.length);
}

/** Both scores of a predicted answer against the real one. */
export function scoreAnswer(predicted: string, reference: string): AnswerScore {
  const p = words(predicted);
  const r = words(reference);
  return { tokenF1: tokenF1(p, r), rougeL: rougeL(p, r) };
}
