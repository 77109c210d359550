import { UseLiteEncoder } from './use-lite.ts';

/**
 * A thread of ThreadedEncoder's pool: the sentence encoder (TF.js wasm and the USE lite weights
 * from node_modules) loaded once when the thread starts, then texts embedded on request.
 */
const encoder = UseLiteEncoder.load();

export default async function embed(task: { texts: string[] }): Promise<Float32Array[]> {
  return (await encoder).embed(task.texts);
}
