import type { Readable } from 'node:stream';

/** Where uploaded files live. Writes are atomic: a blob is either whole or absent. */
export interface BlobStore {
  /** Streams into the store; rejects with a `too_large` DomainError past maxBytes, leaving nothing behind. */
  putStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }>;
  putBuffer(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}
