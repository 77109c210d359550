/**
 * Latency percentiles from bucket counts that add up across processes and days.
 *
 * The buckets are fixed and logarithmic (as in DDSketch): bucket i > 0 holds the latencies in
 * (FLOOR·γ^(i-1), FLOOR·γ^i] with γ = (1+α)/(1-α), and is read back as 2·FLOOR·γ^i/(γ+1), which is
 * within α of every latency in it. So a percentile taken from merged counts (nearest rank) is within
 * α = 2% of the true latency at that rank, whatever the number of requests; it is then kept inside
 * the exact minimum and maximum. Bucket 0 holds everything up to FLOOR (1 µs); latencies beyond an
 * hour share the last bucket. From 0.1 ms to 10 s a key uses at most ~290 buckets a day.
 */
export const LATENCY_ACCURACY = 0.02;
const GAMMA = (1 + LATENCY_ACCURACY) / (1 - LATENCY_ACCURACY);
const LN_GAMMA = Math.log(GAMMA);
const FLOOR_MS = 0.001;
const TOP_BUCKET = Math.ceil(Math.log(3_600_000 / FLOOR_MS) / LN_GAMMA);

/** The bucket of a latency in milliseconds. */
export function latencyBucket(ms: number): number {
  if (!(ms > FLOOR_MS)) return 0;
  return Math.min(TOP_BUCKET, Math.ceil(Math.log(ms / FLOOR_MS) / LN_GAMMA));
}

/** The value a bucket stands for: within LATENCY_ACCURACY of every latency in it. */
export function bucketValue(bucket: number): number {
  return bucket <= 0 ? FLOOR_MS : (2 * FLOOR_MS * GAMMA ** bucket) / (GAMMA + 1);
}

/** Adds `n` counts of `bucket` to a histogram (bucket → count). */
export function addToHistogram(h: Map<number, number>, bucket: number, n = 1): void {
  h.set(bucket, (h.get(bucket) ?? 0) + n);
}

/**
 * The latency at each quantile q (0 < q ≤ 1) by nearest rank: the ceil(q·n)-th smallest of the n
 * counted latencies, read from its bucket and kept within [min, max]. Zero for an empty histogram.
 */
export function quantiles(h: ReadonlyMap<number, number>, qs: readonly number[], min: number, max: number): number[] {
  const buckets = [...h].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return qs.map(() => 0);
  return qs.map((q) => {
    const rank = Math.max(1, Math.ceil(q * total));
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (seen >= rank) return Math.min(max, Math.max(min, bucketValue(bucket)));
    }
    return max;
  });
}
