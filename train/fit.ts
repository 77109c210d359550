/**
 * The two models `npm run train` fits, with TensorFlow.js (its Adam optimiser on the WebAssembly
 * backend; tfjs-core's bundle registers no gradient functions, and both losses have closed-form
 * gradients, so those are computed with tensor ops and handed to `applyGradients`): the passage ranking, a linear score trained with a listwise softmax loss (the
 * right answer's passages against all of the person's passages, per question), and the confidence, a
 * logistic regression. Features are standardised for the fit; the weights returned apply to the raw
 * features. L2 strength and epochs are chosen by the caller on validation people.
 */
import * as tf from '@tensorflow/tfjs-core';
import { wasmBackend } from '../src/memory/encoder/use-lite.ts';

export interface Linear {
  bias: number;
  weights: number[];
}

export interface RankQuery {
  /** Passages × features, row-major. */
  rows: Float32Array;
  labels: Uint8Array;
}

export interface FitOptions {
  l2: number;
  epochs: number;
  learningRate: number;
  /** Called every `every` epochs with the weights so far (for validation curves). */
  onCheckpoint?: (epoch: number, model: Linear, loss: number) => void;
  every?: number;
}

/** Each feature's mean and standard deviation over row-major rows of `f` features. */
export function moments(rows: readonly Float32Array[], f: number): { mean: Float64Array; std: Float64Array } {
  const mean = new Float64Array(f);
  const sq = new Float64Array(f);
  let n = 0;
  for (const r of rows) {
    for (let i = 0; i < r.length; i += f) {
      for (let k = 0; k < f; k++) {
        const v = r[i + k] as number;
        mean[k] = (mean[k] as number) + v;
        sq[k] = (sq[k] as number) + v * v;
      }
      n++;
    }
  }
  const std = new Float64Array(f);
  for (let k = 0; k < f; k++) {
    mean[k] = (mean[k] as number) / n;
    std[k] = Math.sqrt(Math.max(1e-12, (sq[k] as number) / n - (mean[k] as number) ** 2));
  }
  return { mean, std };
}

/** Standardised weights (and bias) back to weights over the raw features. */
function unstandardise(w: Float32Array, b: number, mean: Float64Array, std: Float64Array): Linear {
  const weights = Array.from(w, (x, k) => x / (std[k] as number));
  return { bias: b - weights.reduce((s, x, k) => s + x * (mean[k] as number), 0), weights };
}

/** The ranking: listwise softmax over each query's passages (queries without a right passage are skipped). */
export async function fitRanking(queries: readonly RankQuery[], f: number, opts: FitOptions): Promise<Linear> {
  await wasmBackend();
  const usable = queries.filter((q) => q.labels.some((l) => l === 1));
  const width = Math.max(...usable.map((q) => q.labels.length));
  const { mean, std } = moments(usable.map((q) => q.rows), f);
  const x = new Float32Array(usable.length * width * f);
  const mask = new Float32Array(usable.length * width);
  const pos = new Float32Array(usable.length * width);
  usable.forEach((q, i) => {
    for (let p = 0; p < q.labels.length; p++) {
      mask[i * width + p] = 1;
      pos[i * width + p] = q.labels[p] as number;
      for (let k = 0; k < f; k++) x[(i * width + p) * f + k] = ((q.rows[p * f + k] as number) - (mean[k] as number)) / (std[k] as number);
    }
  });
  const X = tf.tensor2d(x, [usable.length * width, f]);
  const notMask = tf.tensor2d(mask.map((m) => (m ? 0 : -1e4)), [usable.length, width]);
  const notPos = tf.tensor2d(pos.map((m) => (m ? 0 : -1e4)), [usable.length, width]);
  const w = tf.variable(tf.zeros([f, 1]));
  const optimizer = tf.train.adam(opts.learningRate);
  const n = usable.length;
  // Loss per query: logsumexp over all its passages − logsumexp over its right ones; its gradient in the
  // scores is softmax(all) − softmax(right), so the weights' is Xᵀ of that (mean over queries) + 2·l2·w.
  const step = (): number => {
    const [loss, grad] = tf.tidy(() => {
      const s = tf.reshape(tf.matMul(X, w), [n, width]);
      const all = tf.add(s, notMask);
      const right = tf.add(s, notPos);
      const l = tf.add(tf.mean(tf.sub(tf.logSumExp(all, 1), tf.logSumExp(right, 1))), tf.mul(opts.l2, tf.sum(tf.square(w))));
      const ds = tf.div(tf.sub(tf.softmax(all), tf.softmax(right)), n);
      const g = tf.add(tf.matMul(X, tf.reshape(ds, [n * width, 1]), true, false), tf.mul(2 * opts.l2, w));
      return [l, g];
    });
    optimizer.applyGradients([{ name: w.name, tensor: grad }]);
    const value = loss.dataSync()[0] as number;
    tf.dispose([loss, grad]);
    return value;
  };
  let model: Linear = { bias: 0, weights: [] };
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    const value = step();
    if (opts.onCheckpoint && (epoch % (opts.every ?? 50) === 0 || epoch === opts.epochs)) {
      opts.onCheckpoint(epoch, unstandardise((await w.data()) as Float32Array, 0, mean, std), value);
    }
  }
  model = unstandardise((await w.data()) as Float32Array, 0, mean, std);
  tf.dispose([X, notMask, notPos, w]);
  optimizer.dispose();
  return model;
}

/** Logistic regression with sample weights: P(y = 1 | x). */
export async function fitLogistic(xs: readonly number[][], ys: readonly number[], weights: readonly number[], opts: FitOptions): Promise<Linear> {
  await wasmBackend();
  const f = xs[0]?.length ?? 0;
  const { mean, std } = moments([Float32Array.from(xs.flat())], f);
  const X = tf.tensor2d(xs.map((r) => r.map((v, k) => (v - (mean[k] as number)) / (std[k] as number))));
  const Y = tf.tensor1d([...ys]);
  const W = tf.tensor1d([...weights]);
  const total = weights.reduce((s, v) => s + v, 0);
  const w = tf.variable(tf.zeros([f, 1]));
  const b = tf.variable(tf.scalar(0));
  const optimizer = tf.train.adam(opts.learningRate);
  const n = xs.length;
  // Weighted cross-entropy from logits, softplus(z) − y·z; its gradient in z is (σ(z) − y)·weight / total.
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    const [loss, gw, gb] = tf.tidy(() => {
      const z = tf.add(tf.reshape(tf.matMul(X, w), [n]), b);
      const l = tf.add(tf.div(tf.sum(tf.mul(tf.sub(tf.softplus(z), tf.mul(Y, z)), W)), total), tf.mul(opts.l2, tf.sum(tf.square(w))));
      const dz = tf.div(tf.mul(tf.sub(tf.sigmoid(z), Y), W), total);
      return [l, tf.add(tf.matMul(X, tf.reshape(dz, [n, 1]), true, false), tf.mul(2 * opts.l2, w)), tf.sum(dz)];
    });
    optimizer.applyGradients([
      { name: w.name, tensor: gw },
      { name: b.name, tensor: gb },
    ]);
    if (opts.onCheckpoint && (epoch % (opts.every ?? 50) === 0 || epoch === opts.epochs)) {
      opts.onCheckpoint(epoch, unstandardise((await w.data()) as Float32Array, (await b.data())[0] as number, mean, std), loss.dataSync()[0] as number);
    }
    tf.dispose([loss, gw, gb]);
  }
  const model = unstandardise((await w.data()) as Float32Array, (await b.data())[0] as number, mean, std);
  tf.dispose([X, Y, W, w, b]);
  optimizer.dispose();
  return model;
}

/** One training question for the adapter: its ask vector, a right passage's and other passages' vectors of the same person. */
export interface AdapterQuery {
  ask: Float32Array;
  right: Float32Array;
  others: Float32Array[];
}

/**
 * The adapter: one weight per dimension of the encoder, so that Σ a[d]·ask[d]·passage[d] scores the
 * person's answer to a question above their other passages (softmax over the right passage and the
 * sampled others; weights start at 1, the plain cosine, and L2 pulls them towards it). `temperature`
 * scales the scores into the softmax's range (cosines here span ~0.1–0.6).
 */
export async function fitAdapter(queries: readonly AdapterQuery[], dimensions: number, opts: FitOptions & { temperature: number }): Promise<number[]> {
  await wasmBackend();
  const width = 1 + Math.min(...queries.map((q) => q.others.length));
  const n = queries.length;
  const x = new Float32Array(n * width * dimensions);
  queries.forEach((q, i) => {
    [q.right, ...q.others.slice(0, width - 1)].forEach((p, j) => {
      for (let d = 0; d < dimensions; d++) x[(i * width + j) * dimensions + d] = (q.ask[d] as number) * (p[d] as number);
    });
  });
  const X = tf.tensor2d(x, [n * width, dimensions]);
  const target = tf.tensor2d(Float32Array.from({ length: n * width }, (_, k) => (k % width === 0 ? 1 : 0)), [n, width]);
  const a = tf.variable(tf.ones([dimensions, 1]));
  const optimizer = tf.train.adam(opts.learningRate);
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    const grad = tf.tidy(() => {
      const s = tf.mul(tf.reshape(tf.matMul(X, a), [n, width]), opts.temperature);
      const ds = tf.mul(tf.div(tf.sub(tf.softmax(s), target), n), opts.temperature);
      return tf.add(tf.matMul(X, tf.reshape(ds, [n * width, 1]), true, false), tf.mul(2 * opts.l2, tf.sub(a, 1)));
    });
    optimizer.applyGradients([{ name: a.name, tensor: grad }]);
    grad.dispose();
  }
  const weights = Array.from((await a.data()) as Float32Array);
  tf.dispose([X, target, a]);
  optimizer.dispose();
  return weights;
}
