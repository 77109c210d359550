/**
 * The one owner of vector maths in the engine: dot products, unit vectors, and the int8 form in which
 * passage vectors are stored (one scale per vector, ≤ 1 KB per 512-d passage with its scale).
 */

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** `v` scaled to length 1 in place (a zero vector stays zero); returns `v`. */
export function toUnitLength(v: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(v, v));
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}

/** `v` scaled to length 1 (a zero vector stays zero). A new array. */
export const unitVector = (v: ArrayLike<number>): Float32Array => toUnitLength(Float32Array.from(v));

export interface QuantisedVectors {
  dimensions: number;
  /** n × dimensions values, each the component divided by its vector's scale, rounded. */
  data: Int8Array;
  /** One per vector: its largest absolute component / 127. */
  scales: Float32Array;
}

/** Vectors (all of `dimensions`) in int8 with a scale each: the stored form. */
export function quantise(vectors: readonly Float32Array[], dimensions: number): QuantisedVectors {
  const data = new Int8Array(vectors.length * dimensions);
  const scales = new Float32Array(vectors.length);
  vectors.forEach((v, i) => {
    let max = 0;
    for (const x of v) max = Math.max(max, Math.abs(x));
    const scale = max > 0 ? max / 127 : 1;
    scales[i] = scale;
    for (let d = 0; d < dimensions; d++) data[i * dimensions + d] = Math.round((v[d] ?? 0) / scale);
  });
  return { dimensions, data, scales };
}

/** The dot product of a float query with each stored vector, into `out` (length n). */
export function dotAll(q: Float32Array, stored: QuantisedVectors, out: Float32Array): void {
  for (let i = 0; i < stored.scales.length; i++) out[i] = dotStored(q, stored, i);
}

/** The dot product of a float query with stored vector i. */
export function dotStored(q: Float32Array, stored: QuantisedVectors, i: number): number {
  const { dimensions: dim, data, scales } = stored;
  let s = 0;
  const base = i * dim;
  for (let d = 0; d < dim; d++) s += (q[d] as number) * (data[base + d] as number);
  return s * (scales[i] ?? 0);
}

/** The stored vector i back in floats (for tests and re-use). */
export function dequantise(stored: QuantisedVectors, i: number): Float32Array {
  const out = new Float32Array(stored.dimensions);
  const s = stored.scales[i] ?? 0;
  for (let d = 0; d < stored.dimensions; d++) out[d] = (stored.data[i * stored.dimensions + d] ?? 0) * s;
  return out;
}

/** The stored vectors at these indexes, in order, as a new set. */
export function pickVectors(stored: QuantisedVectors, indexes: readonly number[]): QuantisedVectors {
  const dim = stored.dimensions;
  const data = new Int8Array(indexes.length * dim);
  const scales = new Float32Array(indexes.length);
  indexes.forEach((i, k) => {
    data.set(stored.data.subarray(i * dim, (i + 1) * dim), k * dim);
    scales[k] = stored.scales[i] ?? 0;
  });
  return { dimensions: dim, data, scales };
}
