/**
 * The search stage's view of a mind's passages: for each passage (build/passages.ts) its first and
 * last doc (sentence) in the mind's memory order, the answer it belongs to, and its stored vector.
 */
import type { PassageSpan } from '../build/passages.ts';
import type { StoredMemory } from '../types.ts';
import { dotAll, dotStored, unitVector, type QuantisedVectors } from '../vector-math.ts';

/** One snapshot's stored passages: spans in seq numbers with their vectors, from the encoder `encoder`. */
export interface SnapshotPassages {
  snapshotId: string;
  encoder: string;
  spans: PassageSpan[];
  vectors: QuantisedVectors;
}

export class PassageVectors {
  /** Doc numbers of each passage's first and last sentence. */
  readonly first: Int32Array;
  readonly last: Int32Array;
  readonly vectors: QuantisedVectors;

  private constructor(first: Int32Array, last: Int32Array, vectors: QuantisedVectors) {
    this.first = first;
    this.last = last;
    this.vectors = vectors;
  }

  get size(): number {
    return this.first.length;
  }

  /**
   * The passages of these snapshots over a mind's docs (sorted by snapshot, then seq). Null when a
   * snapshot has none stored or they come from another encoder: then the mind has no vectors.
   */
  static over(docs: readonly StoredMemory[], stored: readonly SnapshotPassages[], encoder: string): PassageVectors | null {
    const docOf = new Map<string, number>();
    docs.forEach((m, i) => docOf.set(`${m.snapshotId}:${m.seq}`, i));
    const snapshots = new Set(docs.map((m) => m.snapshotId));
    const usable = stored.filter((s) => s.encoder === encoder && snapshots.has(s.snapshotId));
    if (usable.length !== snapshots.size || usable.length === 0) return null;
    const dim = usable[0]!.vectors.dimensions;
    const rows: Array<{ first: number; last: number; snapshot: SnapshotPassages; i: number }> = [];
    for (const s of usable) {
      s.spans.forEach((span, i) => {
        const first = docOf.get(`${s.snapshotId}:${span.first}`);
        const last = docOf.get(`${s.snapshotId}:${span.last}`);
        if (first !== undefined && last !== undefined) rows.push({ first, last, snapshot: s, i });
      });
    }
    rows.sort((a, b) => a.first - b.first);
    const data = new Int8Array(rows.length * dim);
    const scales = new Float32Array(rows.length);
    rows.forEach((r, k) => {
      data.set(r.snapshot.vectors.data.subarray(r.i * dim, (r.i + 1) * dim), k * dim);
      scales[k] = r.snapshot.vectors.scales[r.i] ?? 0;
    });
    return new PassageVectors(Int32Array.from(rows, (r) => r.first), Int32Array.from(rows, (r) => r.last), { dimensions: dim, data, scales });
  }

  /** Cosine of a unit query with every passage. */
  similarities(query: Float32Array): Float32Array {
    const out = new Float32Array(this.size);
    dotAll(query, this.vectors, out);
    return out;
  }

  /** Cosine of a unit query with one passage. */
  similarityOf(query: Float32Array, passage: number): number {
    return dotStored(query, this.vectors, passage);
  }

  /** The mind's centre: the mean of its passages' vectors, to unit length (what the person talks about overall). */
  get centroid(): Float32Array {
    if (this.centre) return this.centre;
    const dim = this.vectors.dimensions;
    const sum = new Float32Array(dim);
    for (let i = 0; i < this.size; i++) {
      const s = this.vectors.scales[i] ?? 0;
      for (let d = 0; d < dim; d++) sum[d] = (sum[d] as number) + (this.vectors.data[i * dim + d] as number) * s;
    }
    this.centre = unitVector(sum);
    return this.centre;
  }
  private centre: Float32Array | null = null;

  /** Bytes held (the vectors, their scales and spans). */
  get bytes(): number {
    return this.vectors.data.byteLength + this.vectors.scales.byteLength + this.first.byteLength * 2;
  }
}
