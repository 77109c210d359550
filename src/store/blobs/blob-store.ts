import type { Readable } from 'node:stream';

/** Where uploaded files live. Writes are atomic: a blob is either whole or absent. */
export interface BlobStore {
  /** Streams into the store; rejects with a `too_large` DomainError past maxBytes, leaving nothing behind. */
  putStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }>;
  putBuffer(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The blob's bytes as a stream (a mind's export sends files of up to MAX_UPLOAD_BYTES without holding them); rejects when it is missing. */
  getStream(key: string): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key is under this folder (`artifacts/{mindId}`); nothing there is fine. */
  deletePrefix(prefix: string): Promise<void>;
  /** Present when clients upload straight to the store (S3 with S3_DIRECT_UPLOADS) instead of through the service. */
  readonly direct?: DirectUploads;
}

/** Uploads that bypass the API: a presigned PUT, then a check and a copy when the snapshot is created. */
export interface DirectUploads {
  /** A URL that accepts PUTs of the object's bytes for `ttlSeconds` from `signedAt` (the service's clock); the store cannot make it one-time. */
  presignPut(key: string, ttlSeconds: number, signedAt: Date): Promise<string>;
  /** The object's size and entity tag, or null when nothing was written. */
  head(key: string): Promise<{ size: number; etag: string } | null>;
  /** Copies exactly the version with this entity tag (a `conflict` DomainError if it changed meanwhile). */
  copy(from: string, to: string, etag: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are relative paths of safe segments: nothing can escape the store or its prefix. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Invalid blob key: ${key}`);
  return key;
}
