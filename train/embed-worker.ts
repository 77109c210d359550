/** A thread of the training's embedding pool: texts in, their vectors out (one flat Float32Array). */
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';

const encoder = UseLiteEncoder.load();

export default async function embed(texts: string[]): Promise<Float32Array> {
  const vectors = await (await encoder).embed(texts);
  const flat = new Float32Array(vectors.length * (vectors[0]?.length ?? 0));
  vectors.forEach((v, i) => flat.set(v, i * v.length));
  return flat;
}
