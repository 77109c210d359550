/** Postings of one field of the BM25 index (index.ts), in compressed sparse row form over typed arrays. */

/** One field's postings in CSR form: term t's postings are [offsets[t], offsets[t+1]). */
export interface Field {
  offsets: Int32Array;
  docs: Int32Array;
  tfs: Uint16Array;
  lengths: Uint32Array;
  avgLength: number;
}

/** Growable (term, doc, tf) triples, turned into a Field by a counting sort on term. */
export class PostingBuilder {
  readonly termIds: number[] = [];
  readonly docIds: number[] = [];
  readonly tfs: number[] = [];

  /** Record the terms (ids) of one doc; returns its length in terms. */
  add(doc: number, ids: readonly number[]): number {
    const sorted = [...ids].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j < sorted.length && sorted[j] === sorted[i]) j++;
      this.termIds.push(sorted[i] ?? 0);
      this.docIds.push(doc);
      this.tfs.push(Math.min(j - i, 65535));
      i = j;
    }
    return ids.length;
  }

  finish(vocabSize: number, lengths: Uint32Array): Field {
    const offsets = new Int32Array(vocabSize + 1);
    for (const t of this.termIds) offsets[t + 1] = (offsets[t + 1] ?? 0) + 1;
    for (let t = 0; t < vocabSize; t++) offsets[t + 1] = (offsets[t + 1] ?? 0) + (offsets[t] ?? 0);
    const cursor = offsets.slice(0, vocabSize);
    const docs = new Int32Array(this.termIds.length);
    const tfs = new Uint16Array(this.termIds.length);
    this.termIds.forEach((t, i) => {
      const at = cursor[t] ?? 0;
      docs[at] = this.docIds[i] ?? 0; // docs were added in order, so each posting list is sorted
      tfs[at] = this.tfs[i] ?? 0;
      cursor[t] = at + 1;
    });
    const total = lengths.reduce((sum, n) => sum + n, 0);
    return { offsets, docs, tfs, lengths, avgLength: lengths.length ? Math.max(1, total / lengths.length) : 1 };
  }
}
