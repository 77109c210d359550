/**
 * The sentence encoder port: texts in, one unit vector each out. The engine embeds the passages it
 * can quote when a snapshot is processed, and a scenario's ask and context when it is asked. An
 * adapter names its model in `id`, stored with the vectors, so vectors of another model are never
 * compared with its own.
 */
export interface SentenceEncoder {
  /** The model and its version, e.g. "use-lite-512@1". */
  readonly id: string;
  readonly dimensions: number;
  /** One L2-normalised vector per text, in order; the same text always gets the same vector. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
