import { Transform, type TransformCallback } from 'node:stream';
import { tooLarge } from '../../kernel/errors.ts';

/** Counts bytes and stops the stream (a `too_large` DomainError) as soon as it passes the limit. */
export class ByteLimit extends Transform {
  bytes = 0;
  exceeded = false;
  private readonly maxBytes: number;
  constructor(maxBytes: number) {
    super();
    this.maxBytes = maxBytes;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.exceeded = true;
      cb(tooLarge(this.maxBytes, 'The upload'));
    } else cb(null, chunk);
  }
}
