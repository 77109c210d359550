/**
 * Retrieval over memories: a compact two-field BM25 (memory text + the question it answered)
 * on an inverted index of wink-nlp stems, stop words removed.
 *
 * Why not wink-bm25-text-search: it refuses fewer than 3 documents (a mind may have 1–2 memories),
 * keys documents by string in plain objects, sorts every candidate per query and leaves tie order
 * to chance. This index keeps postings in typed arrays (CSR layout), touches only the postings of
 * the query's terms, selects top-k without a full sort and breaks ties by (snapshotId, seq).
 *
 * Score meaning (`search` results): raw BM25 divided by the score of an "ideal" memory — one whose
 * text, at average length, contains once each of the query's M most informative (highest-IDF)
 * distinct terms, M = min(n, ceil(√n) + 1) for n query terms (all of a short query, ~5 of a
 * 12-term scenario: one sentence cannot echo a whole paragraph) — clamped to [0, 1].
 * So 1 ≈ the memory covers the heart of the query, 0.5 ≈ half of it (or all of it but only in
 * common words); question-field matches add up to QUESTION_WEIGHT on top. Query terms the person
 * never used have the highest IDF, so an off-topic query scores low even on a chance match.
 */
import type { StoredMemory } from './types.ts';
import { PostingBuilder, type Field } from './postings.ts';
import { terms, topicTerms } from './sentences.ts';
import { BM25_B as B, BM25_K1 as K1, IDF_SMOOTHING, QUESTION_WEIGHT } from './tuning.ts';

export { QUESTION_WEIGHT };
/** Query terms beyond this many are scored but not reported in `terms`. */
const MAX_TRACKED_TERMS = 32;

export interface SearchHit {
  memory: StoredMemory;
  /** The memory's position among the index's memories (`memories`). */
  doc: number;
  /** Normalised strength in [0, 1]; see the module comment. */
  score: number;
  /** Distinct query terms (stems) found in the memory's text or question. */
  terms: string[];
}

/** A distinct query term (see `Bm25Index.analyze`). */
export interface QueryTerm {
  term: string;
  /** IDF in the memories' text (highest for a term the person never used). */
  weight: number;
  /** The person used it at least once. */
  known: boolean;
  /** It is a noun or proper noun of the query (what the query is about). */
  topic: boolean;
}

/** Memory order of every index: by snapshotId, then seq. */
export function compareMemories(a: StoredMemory, b: StoredMemory): number {
  if (a.snapshotId !== b.snapshotId) return a.snapshotId < b.snapshotId ? -1 : 1;
  return a.seq - b.seq;
}

function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + IDF_SMOOTHING) / (df + IDF_SMOOTHING));
}

/** Score of the ideal memory (see the module comment): the sum of the M largest term IDFs. */
export function idealScore(idfs: readonly number[]): number {
  const m = Math.min(idfs.length, Math.ceil(Math.sqrt(idfs.length)) + 1);
  return [...idfs]
    .sort((a, b) => b - a)
    .slice(0, m)
    .reduce((sum, w) => sum + w, 0);
}

export class Bm25Index {
  /** Reused score/mask buffers (search is synchronous, so never shared by two searches at once). */
  private readonly scores: Float64Array;
  private readonly masks: Uint32Array;

  private readonly docs: readonly StoredMemory[];
  private readonly vocab: ReadonlyMap<string, number>;
  private readonly text: Field;
  private readonly question: Field;
  private constructor(
    docs: readonly StoredMemory[],
    vocab: ReadonlyMap<string, number>,
    text: Field,
    question: Field,
  ) {
    this.docs = docs;
    this.vocab = vocab;
    this.text = text;
    this.question = question;
    this.scores = new Float64Array(docs.length);
    this.masks = new Uint32Array(docs.length);
  }

  /** Index memories (any order; ties later resolve by snapshotId, then seq). */
  static build(memories: readonly StoredMemory[]): Bm25Index {
    const docs = [...memories].sort(compareMemories);
    return Bm25Index.fromSorted(docs, docs.map((m) => terms(m.text)));
  }

  /**
   * Index memories already sorted by (snapshotId, seq), with their text's index terms (so a caller
   * that tokenised them for something else need not do it twice).
   */
  static fromSorted(docs: readonly StoredMemory[], textTerms: ReadonlyArray<readonly string[]>): Bm25Index {
    const vocab = new Map<string, number>();
    const idsOf = (tokens: readonly string[]): number[] =>
      tokens.map((t) => {
        let id = vocab.get(t);
        if (id === undefined) vocab.set(t, (id = vocab.size));
        return id;
      });
    const questionCache = new Map<string, number[]>(); // one answer's sentences share their question
    const text = new PostingBuilder();
    const question = new PostingBuilder();
    const textLengths = new Uint32Array(docs.length);
    const questionLengths = new Uint32Array(docs.length);
    docs.forEach((m, doc) => {
      textLengths[doc] = text.add(doc, idsOf(textTerms[doc] ?? []));
      if (!m.question) return;
      let ids = questionCache.get(m.question);
      if (ids === undefined) questionCache.set(m.question, (ids = idsOf(terms(m.question))));
      questionLengths[doc] = question.add(doc, ids);
    });
    return new Bm25Index(docs, vocab, text.finish(vocab.size, textLengths), question.finish(vocab.size, questionLengths));
  }

  /** The indexed memories in (snapshotId, seq) order: a memory's position here is its doc number. */
  get memories(): readonly StoredMemory[] {
    return this.docs;
  }

  /** IDF of a term in the memories' text (highest for a term the person never used). */
  idfOf(term: string): number {
    const id = this.vocab.get(term);
    return idf(id === undefined ? 0 : this.df(this.text, id), this.docs.length);
  }

  /** Number of memories whose text uses the term. */
  documentFrequency(term: string): number {
    const id = this.vocab.get(term);
    return id === undefined ? 0 : this.df(this.text, id);
  }

  /** Number of indexed memories. */
  get size(): number {
    return this.docs.length;
  }

  /**
   * The k best memories for a query, best first; only memories sharing at least one term with
   * the query are returned. Ties are ordered by snapshotId, then seq.
   */
  search(query: string, k: number): SearchHit[] {
    const queryTerms = this.analyze(query, false);
    return this.searchTerms(queryTerms, k, idealScore(queryTerms.map((t) => t.weight)));
  }

  /**
   * Like `search` for terms already weighted by the caller (e.g. IDF × a boost for the ask of a
   * scenario). `ideal` normalises scores.
   * `terms` of a hit lists the matched terms among the first MAX_TRACKED_TERMS.
   */
  searchTerms(queryTerms: ReadonlyArray<{ term: string; weight: number }>, k: number, ideal: number, questionWeight = QUESTION_WEIGHT): SearchHit[] {
    const n = this.docs.length;
    if (n === 0 || k <= 0) return [];
    const touched: number[] = [];
    queryTerms.forEach(({ term, weight }, qi) => {
      const id = this.vocab.get(term);
      if (id === undefined || weight <= 0) return;
      const bit = qi < MAX_TRACKED_TERMS ? 1 << qi : 0;
      const boost = weight / idf(this.df(this.text, id), n);
      this.accumulate(this.text, id, weight, 1, bit, touched);
      if (questionWeight > 0) this.accumulate(this.question, id, boost * idf(this.df(this.question, id), n), questionWeight, bit, touched);
    });
    const hits = this.topK(touched, k).map((doc) => this.hit(doc, ideal, queryTerms));
    for (const doc of touched) {
      this.scores[doc] = 0;
      this.masks[doc] = 0;
    }
    return hits;
  }

  /** The query's distinct index terms, with their weight, whether the person used them, and part of speech. */
  analyze(query: string, withTopics = true): QueryTerm[] {
    const n = this.docs.length;
    const topics = withTopics ? topicTerms(query) : new Set<string>();
    return [...new Set(terms(query))].map((term) => {
      const id = this.vocab.get(term);
      const df = id === undefined ? 0 : this.df(this.text, id);
      return { term, weight: idf(df, n), known: df > 0, topic: topics.has(term) };
    });
  }

  private df(field: Field, id: number): number {
    return (field.offsets[id + 1] ?? 0) - (field.offsets[id] ?? 0);
  }

  /** Add one term's BM25 contribution in one field to every doc in its postings. */
  private accumulate(field: Field, id: number, weight: number, fieldWeight: number, bit: number, touched: number[]): void {
    const end = field.offsets[id + 1] ?? 0;
    for (let p = field.offsets[id] ?? 0; p < end; p++) {
      const doc = field.docs[p] ?? 0;
      const tf = field.tfs[p] ?? 0;
      const norm = 1 - B + (B * (field.lengths[doc] ?? 0)) / field.avgLength;
      const current = this.scores[doc] ?? 0;
      if (current === 0) touched.push(doc); // every contribution is > 0, so 0 means untouched
      this.scores[doc] = current + (fieldWeight * weight * tf * (K1 + 1)) / (tf + K1 * norm);
      this.masks[doc] = (this.masks[doc] ?? 0) | bit;
    }
  }

  /** Best k docs among `touched` (score desc, then doc order = snapshotId, seq), without a full sort. */
  private topK(touched: readonly number[], k: number): number[] {
    const better = (a: number, b: number): boolean => {
      const sa = this.scores[a] ?? 0;
      const sb = this.scores[b] ?? 0;
      return sa !== sb ? sa > sb : a < b;
    };
    const top: number[] = [];
    for (const doc of touched) {
      const worst = top[top.length - 1];
      if (top.length >= k && worst !== undefined && !better(doc, worst)) continue;
      let i = Math.min(top.length, k - 1);
      top[i] = doc;
      while (i > 0 && better(doc, top[i - 1] ?? 0)) {
        top[i] = top[i - 1] ?? 0;
        top[i - 1] = doc;
        i--;
      }
    }
    return top;
  }

  private hit(doc: number, ideal: number, queryTerms: ReadonlyArray<{ term: string }>): SearchHit {
    const memory = this.docs[doc] as StoredMemory;
    const raw = this.scores[doc] ?? 0;
    const mask = this.masks[doc] ?? 0;
    const matched = queryTerms.filter((_, qi) => qi < MAX_TRACKED_TERMS && (mask & (1 << qi)) !== 0).map((t) => t.term);
    return { memory, doc, score: ideal > 0 ? Math.min(1, raw / ideal) : 0, terms: matched };
  }
}
