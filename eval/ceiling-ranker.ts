/**
 * A linear re-ranker fitted to an objective (eval/ceiling.ts): pairwise logistic regression on
 * standardised features as the start, then coordinate ascent on the objective itself (right
 * answer in the top three, the gain of the first pick, or any measure of the rankings). Deterministic.
 */
export interface Query {
  /** Who the query is about (cross-validation leaves one group out). */
  group: string;
  /** The query's number in the caller's list (kept by the fit's copies). */
  id: number;
  /** Features per candidate, candidates in the engine's order. */
  x: number[][];
  /** Gain per candidate: 1/0 for the right answer, or a score such as content F1. */
  gain: number[];
}

/** What a fit maximises: a measure of the rankings of all queries (candidate indices, best first, per query). */
export type Objective = (orders: readonly number[][]) => number;

/** Share of queries with a candidate of positive gain among the first three. */
export const top3: (queries: readonly Query[]) => Objective = (queries) => (orders) =>
  queries.reduce((n, q, i) => n + ((orders[i] ?? []).slice(0, 3).some((c) => (q.gain[c] ?? 0) > 0) ? 1 : 0), 0) / Math.max(1, queries.length);

/** Mean gain of the first candidate. */
export const firstGain: (queries: readonly Query[]) => Objective = (queries) => (orders) =>
  queries.reduce((n, q, i) => n + (q.gain[orders[i]?.[0] ?? 0] ?? 0), 0) / Math.max(1, queries.length);

const EPOCHS = 200;
const RATE = 0.5;
const L2 = 0.01;
const STEPS = [-1, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1];
const PASSES = 4;

/** Candidate indices, best first, by w·x (ties keep the engine's order). */
export function rankBy(q: Query, w: readonly number[]): number[] {
  const s = q.x.map((x) => x.reduce((sum, v, i) => sum + v * (w[i] ?? 0), 0));
  return s.map((_, i) => i).sort((a, b) => (s[b] ?? 0) - (s[a] ?? 0) || a - b);
}

const objectiveOf = (queries: readonly Query[], w: readonly number[], objective: Objective): number => objective(queries.map((q) => rankBy(q, w)));

/** Weights over the raw features (standardisation folded in; a constant shift changes no ranking). */
export function fitRanker(queries: readonly Query[], objective: (fitted: readonly Query[]) => Objective): number[] {
  const dims = queries[0]?.x[0]?.length ?? 0;
  const all = queries.flatMap((q) => q.x);
  const mu = Array.from({ length: dims }, (_, d) => all.reduce((s, x) => s + (x[d] ?? 0), 0) / Math.max(1, all.length));
  const sd = Array.from({ length: dims }, (_, d) => Math.sqrt(all.reduce((s, x) => s + ((x[d] ?? 0) - (mu[d] ?? 0)) ** 2, 0) / Math.max(1, all.length)) || 1);
  const z = queries.map((q) => ({ ...q, x: q.x.map((x) => x.map((v, d) => (v - (mu[d] ?? 0)) / (sd[d] ?? 1))) }));
  const pairs: { a: number[]; b: number[]; weight: number }[] = [];
  for (const q of z) {
    q.gain.forEach((gi, i) =>
      q.gain.forEach((gj, j) => {
        if (gi > gj) pairs.push({ a: q.x[i] ?? [], b: q.x[j] ?? [], weight: gi - gj });
      }),
    );
  }
  const w = new Array<number>(dims).fill(0);
  w[0] = 1; // the engine's own order
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const grad = w.map((wi) => L2 * wi);
    for (const p of pairs) {
      let margin = 0;
      for (let d = 0; d < dims; d++) margin += (w[d] ?? 0) * ((p.a[d] ?? 0) - (p.b[d] ?? 0));
      const g = -p.weight / (1 + Math.exp(margin));
      for (let d = 0; d < dims; d++) grad[d] = (grad[d] ?? 0) + (g * ((p.a[d] ?? 0) - (p.b[d] ?? 0))) / pairs.length;
    }
    for (let d = 0; d < dims; d++) w[d] = (w[d] ?? 0) - RATE * (grad[d] ?? 0);
  }
  const measure = objective(z);
  let best = objectiveOf(z, w, measure);
  for (let pass = 0; pass < PASSES; pass++) {
    for (let d = 0; d < dims; d++) {
      for (const step of STEPS) {
        const trial = [...w];
        trial[d] = (trial[d] ?? 0) + step;
        const value = objectiveOf(z, trial, measure);
        if (value > best) {
          best = value;
          w[d] = trial[d] ?? 0;
        }
      }
    }
  }
  return w.map((wi, d) => wi / (sd[d] ?? 1));
}
