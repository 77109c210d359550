/**
 * What a person said that bears on a typed question (panels), and how well a short phrase (an
 * option of the question) matches their sentences.
 *
 * - `questionPassages`: the engine's own retrieval (retrieval.ts) on the question — the options
 *   as its context, so "Arsenal, Chelsea, Liverpool. Which team do you support?" searches the
 *   ask and leans on the options to choose — then the best answers' passages (`passageOf`), each
 *   sentence weighted by its answer's rank and its own retrieval relevance, and the retrieval's
 *   confidence (confidence.ts).
 * - `PhraseMatcher`: a phrase's content words matched against a sentence's, exactly (same stem)
 *   or in meaning (word-vector cosine), weighted by how rare each phrase word is in English
 *   (SIF), so "venture capital" matches "we raised from VCs" and "bootstrapped" matches "we
 *   never took outside money"… only as far as the vectors carry it. Built once per question
 *   (its option vectors), reused on every mind; sentence word vectors are remembered per mind.
 *
 * Deterministic.
 */
import { confidenceOf } from './confidence.ts';
import type { MindMemory } from './mind-memory.ts';
import { passageOf, relevanceOf, retrieve, type Retrieval } from './retrieval.ts';
import { properNounStems, termTokens, type TermToken } from './sentences.ts';
import { tokenWeight } from './semantic.ts';
import { DIMS, wordVectors } from './word-vectors.ts';

/** Answers whose passages a typed answer reads, and their weights by rank. */
const ANSWER_WEIGHTS = [1, 0.7, 0.5];
/** An answer below this share of the best answer's score is not read. */
const MIN_ANSWER_SHARE = 0.45;
/** Words per passage read. */
const PASSAGE_WORDS = 120;
/** A sentence of a passage that retrieval did not rank counts this much (it is context of a ranked one). */
const UNRANKED_RELEVANCE = 0.3;

export interface QuestionPassages {
  retrieval: Retrieval;
  /** The retrieval's confidence (confidence.ts) that something the person said bears on the question. */
  confidence: number;
  /** The passages read, best first (doc numbers in order). */
  passages: number[][];
  /** Weight of each sentence read, in (0, 1]: its answer's rank weight × its relevance. */
  weight: Map<number, number>;
  /** Retrieval relevance of each ranked sentence (for evidence scores). */
  relevance: Map<number, number>;
}

export function questionPassages(mind: MindMemory, scenario: string): QuestionPassages {
  const retrieval = retrieve(mind, scenario);
  const confidence = confidenceOf(retrieval.signals, mind.semantic !== null);
  const relevance = new Map(retrieval.ranked.map((r) => [r.doc, relevanceOf(r)]));
  const best = retrieval.answers[0]?.score ?? 0;
  const passages: number[][] = [];
  const weight = new Map<number, number>();
  retrieval.answers.slice(0, ANSWER_WEIGHTS.length).forEach((a, k) => {
    if (a.score < best * MIN_ANSWER_SHARE) return;
    const docs = passageOf(mind, a, PASSAGE_WORDS);
    passages.push(docs);
    const top = Math.max(...[a.lead, ...a.support].map((r) => relevanceOf(r)), 1e-6);
    for (const d of docs) {
      const rel = relevance.has(d) ? 0.5 + 0.5 * ((relevance.get(d) ?? 0) / top) : UNRANKED_RELEVANCE;
      const w = (ANSWER_WEIGHTS[k] ?? 0) * Math.min(1, rel);
      if (w > (weight.get(d) ?? 0)) weight.set(d, w);
    }
  });
  return { retrieval, confidence, passages, weight, relevance };
}

// ---- Phrase matching ----

/** A word-vector cosine below this is no match (unrelated words sit around 0.1–0.4). */
const MIN_COSINE = 0.5;

const vectorCache = new Map<string, Float32Array | null>();
const VECTOR_CACHE = 50_000;

/** Unit vector of a word (lower-case), remembered; null when it has none. */
function unitVector(word: string): Float32Array | null {
  const cached = vectorCache.get(word);
  if (cached !== undefined) return cached;
  const table = wordVectors();
  const row = table.row(word);
  let v: Float32Array | null = null;
  if (row >= 0) {
    v = new Float32Array(DIMS);
    table.addTo(v, row, 1);
    let n = 0;
    for (let d = 0; d < DIMS; d++) n += v[d]! * v[d]!;
    if (n > 0) for (let d = 0, inv = 1 / Math.sqrt(n); d < DIMS; d++) v[d]! *= inv;
    else v = null;
  }
  if (vectorCache.size >= VECTOR_CACHE) vectorCache.clear();
  vectorCache.set(word, v);
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  for (let d = 0; d < DIMS; d += 2) {
    s0 += a[d]! * b[d]!;
    s1 += a[d + 1]! * b[d + 1]!;
  }
  return s0 + s1;
}

/** A content word of a sentence: its stem and unit vector. */
export interface SentenceWord {
  stem: string;
  vector: Float32Array | null;
}

/** Per mind: each sentence's content words (stem and vector), read once. */
const sentenceWords = new WeakMap<MindMemory, Map<number, SentenceWord[]>>();

/** The content words of a text (a part of a sentence), with their vectors when `semantic`. */
export const wordsOfText = (text: string, semantic: boolean): SentenceWord[] => termTokens(text).map((t) => ({ stem: t.stem, vector: semantic ? unitVector(t.word) : null }));

function wordsOf(mind: MindMemory, doc: number, semantic: boolean) {
  let perMind = sentenceWords.get(mind);
  if (!perMind) sentenceWords.set(mind, (perMind = new Map()));
  let words = perMind.get(doc);
  if (!words) {
    words = (mind.tokens[doc] ?? []).map((t) => ({ stem: t.stem, vector: semantic ? unitVector(t.word) : null }));
    perMind.set(doc, words);
  }
  return words;
}

/** A short phrase (an option) read once: its content words, their stems, vectors and weights. */
export class PhraseMatcher {
  readonly words: ReadonlyArray<{ stem: string; vector: Float32Array | null; weight: number }>;

  constructor(phrase: string, tokens: readonly TermToken[] = termTokens(phrase)) {
    const table = wordVectors();
    const seen = new Set<string>();
    // A name matches only itself: "Boston" is not said by a sentence about Chicago, however near their vectors.
    const names = properNounStems(phrase);
    const words: Array<{ stem: string; vector: Float32Array | null; weight: number }> = [];
    for (const t of tokens) {
      if (seen.has(t.stem)) continue;
      seen.add(t.stem);
      words.push({ stem: t.stem, vector: names.has(t.stem) ? null : unitVector(t.word), weight: tokenWeight(table, t) });
    }
    this.words = words;
  }

  get empty(): boolean {
    return this.words.length === 0;
  }

  /**
   * How well a sentence of the mind says this phrase, in [0, 1]: each phrase word's best match
   * among the sentence's words (1 for the same stem, else the cosine when ≥ MIN_COSINE), weighted;
   * 0 unless more than half of a phrase's words match.
   */
  match(mind: MindMemory, doc: number): number {
    return this.score(this.wordMatches(mind, doc));
  }

  /** Each phrase word's best match in a sentence (1 for the same stem, else the cosine when ≥ MIN_COSINE, else 0). */
  wordMatches(mind: MindMemory, doc: number): number[] {
    return this.wordMatchesIn(wordsOf(mind, doc, mind.semantic !== null));
  }

  /** Each phrase word's best match among some words (a part of a sentence: `wordsOfText`). */
  wordMatchesIn(sentence: readonly SentenceWord[]): number[] {
    return this.words.map((w) => {
      let best = 0;
      for (const s of sentence) {
        if (s.stem === w.stem) return 1;
        if (w.vector && s.vector) {
          const c = dot(w.vector, s.vector);
          if (c >= MIN_COSINE && c > best) best = c;
        }
      }
      return best;
    });
  }

  /**
   * The phrase's match from its words' matches (`wordMatches`, of one sentence or the best of
   * several), weighted by rarity; 0 unless more than half of its words match.
   */
  score(best: readonly number[]): number {
    if (this.words.length === 0) return 0;
    let total = 0;
    let got = 0;
    let matched = 0;
    this.words.forEach((w, i) => {
      const b = best[i] ?? 0;
      total += w.weight;
      got += w.weight * b;
      if (b > 0) matched++;
    });
    // Most of a phrase's words must be there: "Real Madrid" is not "it's real", "red wine" not "craft beers".
    if (this.words.length > 1 && matched * 2 <= this.words.length) return 0;
    return total > 0 ? got / total : 0;
  }
}
