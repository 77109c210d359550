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
import { VOCABULARY_WITH_QUESTIONS } from './tuning.ts';

/** Loads what the first memory and scenario need (wink-nlp), ahead of them. */
export function preloadMindMemory(): void {
  wink();
}

/** Sentences of set-up a passage may take from before its lead sentence. */
const LEAD_IN = 2;

const wordCount = (text: string): number => text.split(' ').length;

/**
 * What V8 (64-bit, no pointer compression, as Node.js is built) spends on the things a MindMemory
 * holds, for `MindMemory.bytes`. A string is a 16-byte header and its characters, one byte each
 * unless one is beyond Latin-1 (then two), rounded to 8.
 */
const TWO_BYTE = /[\u0100-\uffff]/; // any UTF-16 code unit beyond Latin-1
const stringBytes = (s: string | null): number => (s === null ? 0 : (16 + s.length * (TWO_BYTE.test(s) ? 2 : 1) + 7) & ~7);
/** A memory as loaded: an object of 8 fields (24 + 8 × 8) and its start and end times boxed (16 each). */
const MEMORY_OBJECT = 120;
/** A term token {stem, word}: an object of 2 fields (24 + 16) and its slot; its strings add little (the stems are shared through sentences.ts's cache; 44 fits what was measured). */
const TOKEN = 44;
/** A doc's array of tokens: the array and its store's header (48), and at least 17 slots (an array grown by push). */
const TOKEN_ARRAY = 48;
const TOKEN_ARRAY_MIN_SLOTS = 17;
/** A JavaScript Map's cost per entry of its capacity (a power of two): 3 slots of 8, and half a bucket. */
const MAP_ENTRY = 28;
/**
 * Postings of the BM25 index's question field: one (Int32 doc, Uint16 tf) per distinct index term of
 * a memory's question, about one per 20 characters of question (0.046–0.053 on five corpus minds).
 */
const QUESTION_CHARS_PER_POSTING = 20;
/** The objects around the typed arrays (~20 of them, each a view, a buffer and its store's record) and the rest. */
const FIXED = 16_000;
/** A sentence's reading, once remembered (`reading`): its candidate phrases and the Map's entry (490–600 bytes measured). */
const READING = 540;

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

  /**
   * An estimate of the bytes this memory holds, for the cache's budget (domain/mind-memory.ts):
   * the memories as loaded (their objects and strings: text, question, speaker, snapshot id),
   * their term tokens, the BM25 index (its vocabulary Map and the postings, lengths and score
   * buffers in typed arrays), the answer bounds and word counts, the passage vectors; and the
   * sentences' readings remembered so far (`reading`), which grow with use (every sentence read
   * adds about a third to a fresh memory), so the estimate does too.
   *
   * Measured against the heap once (heapUsed + arrayBuffers after a full GC, 20 copies of each
   * set built and held in a fresh process, Node 24): on five corpus minds of 36–453 sentences
   * and on the set of all five, the estimate is 2.1% under to 1.6% over what a fresh memory holds
   * (66–1,803 KB), and 2.3% under to 3.8% over once every sentence has been read (84–2,520 KB).
   * Not counted: the stems, shared by every mind through sentences.ts's cache.
   */
  get bytes(): number {
    return (this.estimate ??= this.estimateBytes()) + READING * this.readings.size;
  }
  private estimate: number | null = null;

  private estimateBytes(): number {
    const n = this.memories.length;
    let rows = 0;
    let questionChars = 0;
    for (const m of this.memories) {
      rows += MEMORY_OBJECT + stringBytes(m.text) + stringBytes(m.question) + stringBytes(m.speaker) + stringBytes(m.snapshotId);
      questionChars += m.question?.length ?? 0;
    }
    let tokens = 0;
    let tokenArrays = 0;
    const stems = new Set<string>();
    for (const doc of this.tokens) {
      tokens += doc.length;
      tokenArrays += TOKEN_ARRAY + 8 * Math.max(TOKEN_ARRAY_MIN_SLOTS, doc.length);
      for (const t of doc) stems.add(t.stem);
    }
    // The vocabulary holds the text's stems and the questions' own (10–14% more on the corpus minds).
    const vocab = Math.ceil(stems.size * VOCABULARY_WITH_QUESTIONS);
    const lexical =
      MAP_ENTRY * 2 ** Math.ceil(Math.log2(vocab + 1)) + // vocabulary
      2 * 4 * (vocab + 1) + // both fields' offsets
      6 * (tokens + questionChars / QUESTION_CHARS_PER_POSTING) + // postings: Int32 doc + Uint16 tf
      (2 * 4 + 8 + 4) * n; // both fields' lengths, the score and mask buffers
    const arrays = 8 * n * 2 + (4 + 4 + 2) * n; // the docs and their tokens (arrays of pointers), answerFirst/Last, words
    return Math.round(rows + TOKEN * tokens + tokenArrays + lexical + arrays + (this.passages?.bytes ?? 0) + FIXED);
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
