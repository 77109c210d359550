/**
 * A mind's memory for one exact set of completed snapshots: the memories, the BM25 index over them,
 * the answers they form and the passages with their encoder vectors (search/). Built once per set
 * (see domain/mind-memory.ts for the cache) and shared by both engines and the profile.
 */
import { Bm25Index, compareMemories } from './bm25.ts';
import { readSentence, type Candidate } from './profile-topics.ts';
import { PassageVectors, type SnapshotPassages } from './search/passage-vectors.ts';
import { termTokens, wink, type TermToken } from './sentences.ts';
import type { StoredMemory } from './types.ts';

/** Loads what the first memory and scenario need (wink-nlp), ahead of them. */
export function preloadMindMemory(): void {
  wink();
}

/** Sentences of set-up a passage may take from before its lead sentence. */
const LEAD_IN = 2;

const wordCount = (text: string): number => text.split(' ').length;

export class MindMemory {
  /** First and last doc of the answer each doc belongs to (consecutive sentences under one question). */
  readonly answerFirst: Int32Array;
  readonly answerLast: Int32Array;
  /** Words per doc. */
  readonly words: Uint16Array;
  private typical: number | null = null;

  /** Identifies the set of snapshots (their sorted ids). */
  readonly key: string;
  readonly lexical: Bm25Index;
  readonly tokens: ReadonlyArray<readonly TermToken[]>;
  /** The passages with their encoder vectors (search/), or null when the snapshots have none stored. */
  readonly passages: PassageVectors | null;
  private constructor(
    key: string,
    lexical: Bm25Index,
    tokens: ReadonlyArray<readonly TermToken[]>,
    passages: PassageVectors | null,
  ) {
    this.key = key;
    this.passages = passages;
    this.lexical = lexical;
    this.tokens = tokens;
    const docs = lexical.memories;
    this.answerFirst = new Int32Array(docs.length);
    this.answerLast = new Int32Array(docs.length);
    this.words = new Uint16Array(docs.length);
    let first = 0;
    docs.forEach((m, i) => {
      const prev = docs[i - 1];
      const continues = prev !== undefined && prev.snapshotId === m.snapshotId && prev.question === m.question && prev.seq === m.seq - 1;
      if (!continues) first = i;
      this.answerFirst[i] = first;
      this.words[i] = Math.min(65535, wordCount(m.text));
    });
    let last = docs.length - 1;
    for (let i = docs.length - 1; i >= 0; i--) {
      if ((this.answerFirst[i + 1] ?? -1) !== this.answerFirst[i]) last = i;
      this.answerLast[i] = last;
    }
  }

  /**
   * Index memories (any order). `stored` are the snapshots' passages with their vectors from
   * `encoder` (build/passages.ts, the analysis thread).
   */
  static build(key: string, memories: readonly StoredMemory[], stored: readonly SnapshotPassages[] = [], encoder = ''): MindMemory {
    const docs = [...memories].sort(compareMemories);
    const tokens = docs.map((m) => termTokens(m.text));
    const lexical = Bm25Index.fromSorted(
      docs,
      tokens.map((ts) => ts.map((t) => t.stem)),
    );
    return new MindMemory(key, lexical, tokens, PassageVectors.over(docs, stored, encoder));
  }

  get memories(): readonly StoredMemory[] {
    return this.lexical.memories;
  }

  get size(): number {
    return this.lexical.size;
  }

  /** Median length in words of the person's answers (runs of sentences under one question). */
  get typicalAnswerWords(): number {
    if (this.typical !== null) return this.typical;
    const lengths: number[] = [];
    this.memories.forEach((m, i) => {
      if (m.question === null) return;
      if (this.answerFirst[i] === i) lengths.push(0);
      lengths[lengths.length - 1] = (lengths[lengths.length - 1] ?? 0) + (this.words[i] ?? 0);
    });
    lengths.sort((a, b) => a - b);
    this.typical = lengths[Math.floor(lengths.length / 2)] ?? 0;
    return this.typical;
  }

  /**
   * A passage to quote, as doc numbers in order, within `lead`'s answer: a window of about
   * `targetWords` that holds `lead` and, among such windows, the most `weight` (the retrieved
   * sentences' scores; ties keep the window that starts at `lead`), so a reply leads with what
   * answers the ask; then, if the answer ends first, at most LEAD_IN sentences before it.
   */
  passage(lead: number, targetWords: number, weight: (doc: number) => number = () => 0): number[] {
    const first = this.answerFirst[lead] ?? lead;
    const last = this.answerLast[lead] ?? lead;
    let docs: number[] = [];
    let words = 0;
    let best = -Infinity;
    // Windows start at `lead` or at an earlier weighted sentence close enough to hold `lead` too.
    for (let start = lead, before = 0; start >= first && before < targetWords; before += this.words[--start] ?? 0) {
      if (start !== lead && weight(start) <= 0) continue;
      const window: number[] = [];
      let n = 0;
      let score = 0;
      for (let d = start; d <= last && (n < targetWords || d <= lead); d++) {
        window.push(d);
        n += this.words[d] ?? 0;
        score += weight(d);
      }
      if (score > best) [docs, words, best] = [window, n, score];
    }
    const from = docs[0] ?? lead;
    for (let d = from - 1; d >= first && words < targetWords && from - d <= LEAD_IN; d--) {
      docs.unshift(d);
      words += this.words[d] ?? 0;
    }
    return docs;
  }

  /**
   * A sentence read for its subjects and sentiment (wink-nlp's part-of-speech pass), remembered:
   * the same passages come back across scenarios, and reading is most of an answer's cost.
   */
  reading(doc: number): { candidates: Candidate[]; sentiment: number } {
    let read = this.readings.get(doc);
    if (!read) {
      const { candidates, sentiment } = readSentence(this.memories[doc]?.text ?? '');
      this.readings.set(doc, (read = { candidates, sentiment }));
    }
    return read;
  }
  private readonly readings = new Map<number, { candidates: Candidate[]; sentiment: number }>();

  /** The memories at these doc numbers, in the order given. */
  memoriesAt(docs: readonly number[]): StoredMemory[] {
    return docs.map((d) => this.memories[d]).filter((m): m is StoredMemory => m !== undefined);
  }
}
