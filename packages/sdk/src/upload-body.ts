/** What can be uploaded: a Blob/File, bytes, a web ReadableStream or any async iterable of bytes (a Node stream). */
export type UploadSource = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export type ProgressListener = (sentBytes: number, totalBytes: number | undefined) => void;

export interface UploadBody {
  /** A fresh body for each attempt. */
  body: () => BodyInit;
  size: number | undefined;
  /** Whether the body can be sent again after a failure (a stream cannot; a Blob or bytes can). */
  replayable: boolean;
  /** Call after a body that could not report progress has been sent. */
  finish(): void;
}

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

function asIterable(source: UploadSource): AsyncIterable<Uint8Array> {
  if (source instanceof Blob) return source.stream() as unknown as AsyncIterable<Uint8Array>;
  if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) {
    const stream = source;
    return {
      async *[Symbol.asyncIterator]() {
        const reader = stream.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield value;
          }
        } finally {
          reader.releaseLock();
        }
      },
    };
  }
  return source as AsyncIterable<Uint8Array>;
}

/**
 * A stream that pulls one chunk from the source only when fetch asks for it (high-water mark 0),
 * so the progress it reports is the bytes actually handed to fetch, not the bytes read from disk.
 */
function countingStream(source: AsyncIterable<Uint8Array>, size: number | undefined, onProgress: ProgressListener): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await it.next();
        if (done) return controller.close();
        const chunk: Uint8Array = value instanceof Uint8Array ? value : new TextEncoder().encode(String(value));
        controller.enqueue(chunk);
        sent += chunk.byteLength;
        onProgress(sent, size);
      },
      async cancel(reason) {
        await it.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Turns a source into a fetch body. In Node every source is streamed through a byte counter when
 * progress is asked for; browsers cannot stream request bodies over HTTP/1.1, so there a Blob is
 * sent whole and progress jumps to 100% when the upload is done.
 */
export function uploadBody(source: UploadSource, size: number | undefined, onProgress?: ProgressListener): UploadBody {
  const known = source instanceof Blob ? source.size : source instanceof ArrayBuffer || ArrayBuffer.isView(source) ? source.byteLength : size;
  const whole = source instanceof Blob || source instanceof ArrayBuffer || ArrayBuffer.isView(source);
  const done = () => onProgress?.(known ?? 0, known);
  if (whole && (!onProgress || !isNode)) {
    const blob = source instanceof Blob ? source : new Blob([source as BlobPart]);
    return { body: () => blob, size: known, replayable: true, finish: done };
  }
  const listener = onProgress ?? (() => undefined);
  if (whole) {
    // Bytes in memory: a new counting stream per attempt, so a retried upload counts from 0 again.
    const blob = source instanceof Blob ? source : new Blob([source as BlobPart]);
    return { body: () => countingStream(asIterable(blob), known, listener), size: known, replayable: true, finish: () => undefined };
  }
  const stream = countingStream(asIterable(source), known, listener);
  return { body: () => stream, size: known, replayable: false, finish: () => undefined };
}
