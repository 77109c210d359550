/**
 * The second stage's fit (src/memory/search/rerank.ts): a linear term, one hidden layer of ReLUs over
 * the shortlist's standardised features, and a low-rank bilinear term over the encoder's vectors,
 * trained with TensorFlow.js (Adam; seeded initialisation and order; tfjs-core's Node bundle registers
 * no gradient functions, so the gradients are written out below with tensor ops, as train/fit.ts does) on
 * the train people's questions with a listwise softmax loss over each question's shortlist (the
 * right answer's passages against the rest of the shortlist; questions whose right answer is not in
 * the shortlist are left out, they cannot be re-ordered right). Every epoch the model is written out
 * as the engine reads it and scored on validation people by the engine's own code (`onEpoch`).
 */
import * as tf from '@tensorflow/tfjs-core';
import { wasmBackend } from '../src/memory/encoder/use-lite.ts';
import { moments } from './fit.ts';
import { candidateVectors, RERANK_FEATURE_COUNT, RERANK_FEATURES, rerankRows } from '../src/memory/search/rerank-features.ts';
import { shortlistOf, type RerankModel } from '../src/memory/search/rerank.ts';
import { scorePassages } from '../src/memory/search/rank.ts';
import type { RankingParams } from '../src/memory/params/params.ts';
import type { QueryExample } from './examples.ts';

export interface RerankExample {
  rows: Float32Array;
  vectors: Float32Array;
  ask: Float32Array;
  labels: Float32Array;
}

export interface RerankFitOptions {
  shortlist: number;
  hidden: number;
  rank: number;
  l2: number;
  epochs: number;
  learningRate: number;
  batch: number;
  /** Called after each epoch with the model as the engine reads it; return false to stop early. */
  onEpoch: (epoch: number, model: RerankModel, loss: number) => boolean;
}

/** A question's shortlist under the first stage, as the engine builds it, with which candidates are right. */
export function rerankExample(q: QueryExample, params: Pick<RankingParams, 'ranking'>, shortlist: number): RerankExample | null {
  if (!q.ask || !q.passages) throw new Error('a query without its vectors');
  const list = shortlistOf(scorePassages(q.features, params), shortlist);
  const labels = Float32Array.from(list.passages, (p) => q.labels[p] as number);
  if (!labels.some((l) => l === 1)) return null;
  const { vectors, dots } = candidateVectors(q.passages, list);
  const passages = q.passages;
  return { rows: rerankRows(q.features, list, dots, q.docs, (p) => passages.first[p] as number), vectors, ask: q.ask, labels };
}

/** The features' moments over the train rows (fit.ts), as the engine reads them; no rows (a tiny corpus): none standardised. */
function standardiser(examples: readonly RerankExample[]): { mean: number[]; std: number[] } {
  if (examples.length === 0) return { mean: Array.from({ length: RERANK_FEATURE_COUNT }, () => 0), std: Array.from({ length: RERANK_FEATURE_COUNT }, () => 1) };
  const { mean, std } = moments(
    examples.map((e) => e.rows),
    RERANK_FEATURE_COUNT,
  );
  return { mean: Array.from(mean), std: Array.from(std) };
}

/** A seeded normal(0, σ) initialiser (Box–Muller over the given uniform source). */
function normals(n: number, sigma: number, random: () => number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = sigma * Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
  return out;
}

export async function fitRerank(examples: readonly RerankExample[], dimensions: number, opts: RerankFitOptions, random: () => number): Promise<RerankModel> {
  await wasmBackend();
  const f = RERANK_FEATURE_COUNT;
  const k = opts.shortlist;
  const { mean, std } = standardiser(examples);
  const linear = tf.variable(tf.zeros([f, 1]));
  const hidden = tf.variable(tf.tensor2d(normals(f * opts.hidden, Math.sqrt(2 / f), random), [f, opts.hidden]));
  const hiddenBias = tf.variable(tf.zeros([opts.hidden]));
  const out = tf.variable(tf.tensor2d(normals(opts.hidden, 0.01, random), [opts.hidden, 1]));
  const r = Math.max(1, opts.rank);
  const u = tf.variable(tf.tensor2d(normals(dimensions * r, opts.rank > 0 ? 0.05 : 0, random), [dimensions, r]), opts.rank > 0);
  const v = tf.variable(tf.tensor2d(normals(dimensions * r, opts.rank > 0 ? 0.05 : 0, random), [dimensions, r]), opts.rank > 0);
  const trained = opts.rank > 0 ? [linear, hidden, hiddenBias, out, u, v] : [linear, hidden, hiddenBias, out];
  const optimizer = tf.train.adam(opts.learningRate);
  const order = examples.map((_, i) => i);
  const model = async (): Promise<RerankModel> => ({
    shortlist: k,
    features: [...RERANK_FEATURES],
    mean,
    std,
    linear: Array.from(await linear.data()),
    hidden: Array.from(await hidden.data()),
    hiddenBias: Array.from(await hiddenBias.data()),
    out: Array.from(await out.data()),
    rank: opts.rank,
    u: opts.rank > 0 ? Array.from(await u.data()) : [],
    v: opts.rank > 0 ? Array.from(await v.data()) : [],
  });
  let result = await model();
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    let total = 0;
    for (let start = 0; start < order.length; start += opts.batch) {
      const batch = order.slice(start, start + opts.batch).map((i) => examples[i] as RerankExample);
      const b = batch.length;
      const x = new Float32Array(b * k * f);
      const c = new Float32Array(b * k * dimensions);
      const q = new Float32Array(b * dimensions);
      const maskAll = new Float32Array(b * k).fill(-1e4);
      const maskPos = new Float32Array(b * k).fill(-1e4);
      batch.forEach((e, i) => {
        const n = e.labels.length;
        for (let p = 0; p < n; p++) {
          for (let cIdx = 0; cIdx < f; cIdx++) x[(i * k + p) * f + cIdx] = ((e.rows[p * f + cIdx] as number) - (mean[cIdx] as number)) / (std[cIdx] as number);
          maskAll[i * k + p] = 0;
          if (e.labels[p] === 1) maskPos[i * k + p] = 0;
        }
        c.set(e.vectors.subarray(0, n * dimensions), i * k * dimensions);
        q.set(e.ask, i * dimensions);
      });
      const [loss, grads] = tf.tidy(() => {
        const X = tf.tensor2d(x, [b * k, f]);
        const C = tf.tensor2d(c, [b * k, dimensions]);
        const Q = tf.tensor2d(q, [b, dimensions]);
        const all = tf.tensor2d(maskAll, [b, k]);
        const pos = tf.tensor2d(maskPos, [b, k]);
        const z = tf.add(tf.matMul(X, hidden), hiddenBias);
        const h = tf.relu(z);
        let s = tf.reshape(tf.add(tf.matMul(X, linear), tf.matMul(h, out)), [b, k]);
        const qu = tf.matMul(Q, u);
        const pv = tf.matMul(C, v);
        if (opts.rank > 0) s = tf.add(s, tf.sum(tf.mul(tf.reshape(qu, [b, 1, r]), tf.reshape(pv, [b, k, r])), 2));
        const sAll = tf.add(s, all);
        const sPos = tf.add(s, pos);
        const penalty = tf.addN(trained.slice(1).map((w) => tf.sum(tf.square(w))));
        const l = tf.add(tf.mean(tf.sub(tf.logSumExp(sAll, 1), tf.logSumExp(sPos, 1))), tf.mul(opts.l2, penalty));
        // d loss / d s = (softmax over all − softmax over the right ones) / b, then back through each term.
        const ds = tf.reshape(tf.div(tf.sub(tf.softmax(sAll), tf.softmax(sPos)), b), [b * k, 1]);
        const dz = tf.mul(tf.matMul(ds, out, false, true), tf.step(z));
        const decay = (w: tf.Variable) => tf.mul(2 * opts.l2, w);
        const g: Record<string, tf.Tensor> = {
          [linear.name]: tf.matMul(X, ds, true, false),
          [hidden.name]: tf.add(tf.matMul(X, dz, true, false), decay(hidden)),
          [hiddenBias.name]: tf.add(tf.sum(dz, 0), decay(hiddenBias)),
          [out.name]: tf.add(tf.matMul(h, ds, true, false), decay(out)),
        };
        if (opts.rank > 0) {
          const dsK = tf.reshape(ds, [b, k, 1]);
          const dPv = tf.reshape(tf.mul(dsK, tf.reshape(qu, [b, 1, r])), [b * k, r]);
          const dQu = tf.sum(tf.mul(dsK, tf.reshape(pv, [b, k, r])), 1);
          g[u.name] = tf.add(tf.matMul(Q, dQu, true, false), decay(u));
          g[v.name] = tf.add(tf.matMul(C, dPv, true, false), decay(v));
        }
        return [l, g] as const;
      });
      optimizer.applyGradients(grads);
      total += ((await loss.data())[0] ?? 0) * b;
      tf.dispose([loss, ...Object.values(grads)]);
    }
    result = await model();
    if (!opts.onEpoch(epoch, result, total / order.length)) break;
  }
  tf.dispose([linear, hidden, hiddenBias, out, u, v]);
  optimizer.dispose();
  return result;
}
