/**
 * Meaning-level matching over a mind's memories with word vectors (see word-vectors.ts):
 *
 * - a vector per memory: the SIF-weighted sum of its content
 *   words' unit vectors, centred on the person's mean sentence and normalised, so "older customers on their phones" lands near "elderly
 *   users on mobile";
 * - a vector per index term (stem) the person used, for expanding a query term they never used
 *   into the nearest ones they did ("elderly" → "older", "phone" → "mobile").
 *
 * Deterministic.
 */
import type { TermToken } from './sentences.ts';
import { DIMS, type WordVectors } from './word-vectors.ts';

export interface Neighbour {
  term: string;
  similarity: number;
}

function normalise(v: Float32Array, at = 0, dims = DIMS): boolean {
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += (v[at + d] ?? 0) ** 2;
  if (norm === 0) return false;
  const inv = 1 / Math.sqrt(norm);
  for (let d = 0; d < dims; d++) v[at + d] = (v[at + d] ?? 0) * inv;
  return true;
}

export class SemanticIndex {
  private readonly vectors: WordVectors;
  /** Unit vector per doc (zero when none of its words has a vector). */
  private readonly docVectors: Float32Array;
  /** Unit vector per index term the person used, in `termNames` order. */
  private readonly termVectors: Float32Array;
  private readonly termNames: readonly string[];
  /** The person's mean sentence vector, taken out of every sentence and query vector. */
  private readonly center: Float32Array;
  private constructor(
    vectors: WordVectors,
    docVectors: Float32Array,
    termVectors: Float32Array,
    termNames: readonly string[],
    center: Float32Array,
  ) {
    this.vectors = vectors;
    this.docVectors = docVectors;
    this.termVectors = termVectors;
    this.termNames = termNames;
    this.center = center;
  }

  /** Built from the memories' tokens (as `termTokens` returns them), in doc order. */
  static build(vectors: WordVectors, docTokens: ReadonlyArray<readonly TermToken[]>): SemanticIndex {
    const docVectors = new Float32Array(docTokens.length * DIMS);
    const wordsOfTerm = new Map<string, Set<string>>();
    docTokens.forEach((tokens, i) => {
      const v = embedTokens(vectors, tokens);
      if (v) docVectors.set(v, i * DIMS);
      for (const t of tokens) {
        let set = wordsOfTerm.get(t.stem);
        if (!set) wordsOfTerm.set(t.stem, (set = new Set()));
        set.add(t.word);
      }
    });
    // Averaged word vectors share a common direction (every sentence looks ~0.5 like every other):
    // centring on the person's mean sentence keeps what sets one sentence apart from the rest.
    const center = meanRow(docVectors);
    centre(docVectors, center);
    const termNames: string[] = [];
    const termRows: Float32Array[] = [];
    for (const [term, words] of wordsOfTerm) {
      const v = new Float32Array(DIMS);
      for (const w of words) {
        const row = vectors.row(w);
        if (row >= 0) vectors.addTo(v, row, 1);
      }
      if (!normalise(v)) continue;
      termNames.push(term);
      termRows.push(v);
    }
    const termVectors = new Float32Array(termNames.length * DIMS);
    termRows.forEach((v, i) => termVectors.set(v, i * DIMS));
    return new SemanticIndex(vectors, docVectors, termVectors, termNames, center);
  }

  /** Unit vector of some tokens (SIF-weighted), or null when none has a vector. */
  embed(tokens: readonly TermToken[]): Float32Array | null {
    return embedTokens(this.vectors, tokens);
  }

  /** Unit vector of one word, or null. */
  wordVector(word: string): Float32Array | null {
    const row = this.vectors.row(word);
    if (row < 0) return null;
    const v = new Float32Array(DIMS);
    this.vectors.addTo(v, row, 1);
    return normalise(v) ? v : null;
  }

  /** A query vector centred like the sentences (a new unit vector). */
  private centred(query: Float32Array): Float32Array {
    const q = new Float32Array(query);
    centre(q, this.center);
    return q;
  }

  /** Cosine of a query vector with every doc's text (into `out`, one per doc). */
  docSimilarities(query: Float32Array, out: Float32Array): void {
    dotAll(this.docVectors, this.centred(query), out);
  }

  /** The person's index terms nearest a word vector: at most `k`, similarity ≥ `min`, best first. */
  neighbours(v: Float32Array, k: number, min: number): Neighbour[] {
    const sims = new Float32Array(this.termNames.length);
    dotAll(this.termVectors, v, sims);
    const out: Neighbour[] = [];
    sims.forEach((similarity, i) => {
      if (similarity < min) return;
      out.push({ term: this.termNames[i] ?? '', similarity });
    });
    return out.sort((a, b) => b.similarity - a.similarity || (a.term < b.term ? -1 : 1)).slice(0, k);
  }

  /** `neighbours` of a word, remembered per word (scenarios reuse words; a large mind has tens of thousands of terms to scan). */
  wordNeighbours(word: string, k: number, min: number): Neighbour[] {
    const key = `${word} ${k} ${min}`;
    const cached = this.neighbourCache.get(key);
    if (cached) return cached;
    const v = this.wordVector(word);
    const found = v ? this.neighbours(v, k, min) : [];
    if (this.neighbourCache.size >= NEIGHBOUR_CACHE) this.neighbourCache.clear();
    this.neighbourCache.set(key, found);
    return found;
  }
  private readonly neighbourCache = new Map<string, Neighbour[]>();
}

/** Words whose neighbours a mind remembers (then it starts over). */
const NEIGHBOUR_CACHE = 5000;

/** The SIF-weighted sum of the tokens' unit vectors, normalised; null when none has a vector. */
function embedTokens(vectors: WordVectors, tokens: readonly TermToken[]): Float32Array | null {
  const v = new Float32Array(DIMS);
  for (const t of tokens) {
    const row = vectors.row(t.word);
    if (row >= 0) vectors.addTo(v, row, tokenWeight(vectors, t));
  }
  return normalise(v) ? v : null;
}

/** Dot product of `v` with each DIMS-long row of `rows`, into `out`. */
function dotAll(rows: Float32Array, v: Float32Array, out: Float32Array): void {
  // The hot loop of every simulate (a row per sentence): indexes are in range by construction, so
  // the non-null assertions stand for the `?? 0` that would otherwise be checked 100 times a row.
  // Four running sums (DIMS is a multiple of 4) halve the time of one.
  const n = out.length;
  for (let i = 0, base = 0; i < n; i++, base += DIMS) {
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    let d3 = 0;
    for (let d = 0; d < DIMS; d += 4) {
      d0 += rows[base + d]! * v[d]!;
      d1 += rows[base + d + 1]! * v[d + 1]!;
      d2 += rows[base + d + 2]! * v[d + 2]!;
      d3 += rows[base + d + 3]! * v[d + 3]!;
    }
    out[i] = d0 + d1 + d2 + d3;
  }
}

/** Mean of the non-zero DIMS-long rows. */
function meanRow(rows: Float32Array): Float32Array {
  const mean = new Float32Array(DIMS);
  let count = 0;
  for (let base = 0; base < rows.length; base += DIMS) {
    if ((rows[base] ?? 0) === 0 && (rows[base + 1] ?? 0) === 0) continue;
    count++;
    for (let d = 0; d < DIMS; d++) mean[d] = (mean[d] ?? 0) + (rows[base + d] ?? 0);
  }
  if (count > 0) for (let d = 0; d < DIMS; d++) mean[d] = (mean[d] ?? 0) / count;
  return mean;
}

/** Subtracts `center` from each non-zero row and normalises it again. */
function centre(rows: Float32Array, center: Float32Array): void {
  for (let base = 0; base < rows.length; base += DIMS) {
    if ((rows[base] ?? 0) === 0 && (rows[base + 1] ?? 0) === 0) continue;
    for (let d = 0; d < DIMS; d++) rows[base + d] = (rows[base + d] ?? 0) - (center[d] ?? 0);
    normalise(rows, base);
  }
}

/** SIF weighting (Arora et al. 2017): a word's weight falls with its frequency in English. */
const SIF_A = 1e-3;
/** Zipf estimate of a word's probability from its frequency rank (~150k-word vocabulary). */
const zipf = (rank: number): number => 1 / ((rank + 10) * 12);

/** Weight of a word in a sentence vector: rare words count, "the" and "said" barely. */
export function tokenWeight(vectors: WordVectors, t: TermToken): number {
  const rank = vectors.rank(t.word);
  return SIF_A / (SIF_A + (rank < 0 ? 0 : zipf(rank)));
}
