/**
 * The evaluation's measures: content-word F1, discrimination, AUROC, and the
 * phrase matching of the scenario suite.
 */
import { scoreAnswer as wordScores, tokenF1 } from '../src/memory/fidelity.ts';
import { terms } from '../src/memory/sentences.ts';

export const mean = (xs: readonly number[]): number => {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.length ? ok.reduce((s, x) => s + x, 0) / ok.length : NaN;
};

const TERMS = new Map<string, string[]>();
/** Content-word stems of a text (wink-nlp stems, stop words removed), memoised: the same texts are scored many times. */
export function termsOf(text: string): string[] {
  let t = TERMS.get(text);
  if (!t) {
    t = terms(text);
    TERMS.set(text, t);
  }
  return t;
}

/** Token F1 over content words: the headline closeness of two answers. */
export const contentF1 = (predicted: string, real: string): number => tokenF1(termsOf(predicted), termsOf(real));

export interface Scores {
  tokenF1: number;
  rougeL: number;
  contentF1: number;
}

/** Token F1 and ROUGE-L over all lower-cased words, and token F1 over content words. */
export const scoreAnswer = (predicted: string, real: string): Scores => ({ ...wordScores(predicted, real), contentF1: contentF1(predicted, real) });

/**
 * Discrimination of one person's answers, per question i: the share of the other questions j for
 * which the answer to i is closer (content F1) to the real answer of i than to the real answer of j
 * (ties count ½). Averaged over i this is the share of ordered pairs; a fixed answer scores exactly ½.
 * NaN with fewer than two questions.
 */
export function discrimination(predicted: readonly string[], real: readonly string[]): number[] {
  return predicted.map((p, i) => {
    if (real.length < 2) return NaN;
    const own = contentF1(p, real[i] ?? '');
    let sum = 0;
    for (const [j, r] of real.entries()) {
      if (j === i) continue;
      const other = contentF1(p, r);
      sum += own > other ? 1 : own === other ? 0.5 : 0;
    }
    return sum / (real.length - 1);
  });
}

/** Area under the ROC curve of a score separating positives from negatives (Mann–Whitney U, ties ½). NaN if a side is empty. */
export function auroc(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return NaN;
  let u = 0;
  for (const p of positives) for (const n of negatives) u += p > n ? 1 : p === n ? 0.5 : 0;
  return u / (positives.length * negatives.length);
}

/** Lower-cased, every run of characters other than letters and digits one space: how passages are matched. */
export const normalise = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Whether `phrase` occurs in `text` as whole words, both normalised. */
export function containsPhrase(text: string, phrase: string): boolean {
  const p = normalise(phrase);
  return p.length > 0 && ` ${normalise(text)} `.includes(` ${p} `);
}
