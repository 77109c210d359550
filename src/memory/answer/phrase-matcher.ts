/**
 * How well a short phrase (a typed question's option, its subject) is said by the person's sentences:
 * its content words matched by stem, and — for options — its meaning through the encoder: the option
 * counts as said by a passage whose cosine with it reaches OPTION_COSINE (tuning.ts), so "venture
 * capital" can match "we raised from VCs" when the encoder is sure of it. A name matches only itself.
 * Built once per question, reused on every mind. Deterministic.
 */
import type { MindMemory } from '../mind-memory.ts';
import { properNounStems, termTokens } from '../sentences.ts';
import { OPTION_COSINE } from '../tuning.ts';

/** The stems of a text (a sentence or a part of one), to match phrases against. */
export const stemsOfText = (text: string): ReadonlySet<string> => new Set(termTokens(text).map((t) => t.stem));

/** Per mind: each sentence's stems, read once. */
const sentenceStems = new WeakMap<MindMemory, Map<number, ReadonlySet<string>>>();

function stemsOf(mind: MindMemory, doc: number): ReadonlySet<string> {
  let perMind = sentenceStems.get(mind);
  if (!perMind) sentenceStems.set(mind, (perMind = new Map()));
  let stems = perMind.get(doc);
  if (!stems) perMind.set(doc, (stems = new Set((mind.tokens[doc] ?? []).map((t) => t.stem))));
  return stems;
}

/**
 * Whether a phrase names something ("Boston", "Real Madrid", "Sicilian Defence"): a one-word phrase
 * tagged a proper noun, or a proper noun after its first word (wink-nlp tags any capitalised first
 * word so: "Remote, from home" is no name).
 */
function isName(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  return properNounStems(words.length === 1 ? phrase : words.slice(1).join(' ')).size > 0;
}

export class PhraseMatcher {
  /** The phrase's distinct content stems. */
  readonly stems: readonly string[];
  /** The phrase's encoder vector (options only), or null. */
  readonly vector: Float32Array | null;

  constructor(phrase: string, vector: Float32Array | null = null) {
    this.stems = [...new Set(termTokens(phrase).map((t) => t.stem))];
    // A name matches only itself: a passage about Chicago is near "Boston" in meaning, and says nothing of it.
    this.vector = this.stems.length > 0 && !isName(phrase) ? vector : null;
  }

  get empty(): boolean {
    return this.stems.length === 0;
  }

  /** How well a sentence of the mind says this phrase by its words, in [0, 1] (`score`). */
  match(mind: MindMemory, doc: number): number {
    return this.score(this.wordMatches(mind, doc));
  }

  /** Each phrase stem: 1 when the sentence says it, else 0. */
  wordMatches(mind: MindMemory, doc: number): number[] {
    return this.wordMatchesIn(stemsOf(mind, doc));
  }

  /** Each phrase stem: 1 when these stems (a part of a sentence: `stemsOfText`) hold it, else 0. */
  wordMatchesIn(stems: ReadonlySet<string>): number[] {
    return this.stems.map((s) => (stems.has(s) ? 1 : 0));
  }

  /**
   * The phrase's match from its stems' matches (of one sentence, or the best of several): the share
   * said, 0 unless more than half of a phrase's words are there ("Real Madrid" is not "it's real").
   */
  score(best: readonly number[]): number {
    if (this.stems.length === 0) return 0;
    const matched = best.filter((b) => b > 0).length;
    if (this.stems.length > 1 && matched * 2 <= this.stems.length) return 0;
    return best.reduce((s, b) => s + b, 0) / this.stems.length;
  }

  /** Whether the encoder is sure the passage `passage` of the mind says this phrase (its cosine ≥ OPTION_COSINE). */
  meant(mind: MindMemory, passage: number | undefined): boolean {
    const passages = mind.passages;
    if (!this.vector || !passages || passage === undefined) return false;
    return passages.similarityOf(this.vector, passage) >= OPTION_COSINE;
  }
}
