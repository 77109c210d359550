/**
 * A budget on a PDF's decompressed streams, counted in bytes before pdf.js reads the file: the same
 * verdict on every machine, where pdf.js's own time on a stream bomb (a few KB that inflate to hundreds
 * of MB of drawing operators) depends on the machine's speed. Every Flate-encoded stream that is not an
 * image is inflated with a cap; past MAX_PDF_STREAM_BYTES in all, a file whose streams draw text is too
 * long a transcript, and one that draws none is too complex. Images (their own filters, or Flate images)
 * are not counted: their pixels are never read.
 */
import zlib from 'node:zlib';
import { tooLong } from './limits.ts';
import { IngestError } from './transcript.ts';

/**
 * Decompressed bytes of content a PDF may hold: a 500-page transcript (MAX_PDF_PAGES) at ~30 KB of
 * content stream a page is ~15 MB; twice that leaves room for heavy typesetting.
 */
export const MAX_PDF_STREAM_BYTES = 32 * 1024 * 1024;
/** How much of an over-budget stream is read to tell text from drawing: its first compressed bytes (≤ ~4 MB inflated). */
const SAMPLE_BYTES = 4 * 1024;

const STREAM_RE = /stream\r?\n/g;
const TEXT_OPERATOR_RE = /\)\s*Tj\b|\]\s*TJ\b|\)\s*'/;

/** Throws transcript_too_long or file_too_complex when the file's streams decompress past the budget. */
export function checkPdfStreams(pdf: Buffer): void {
  const text = pdf.toString('latin1');
  let left = MAX_PDF_STREAM_BYTES;
  for (const m of text.matchAll(STREAM_RE)) {
    const start = (m.index ?? 0) + m[0].length;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf('<<', m.index ?? 0) - 1), m.index);
    if (!/\/FlateDecode/.test(dictionary) || /\/Subtype\s*\/Image/.test(dictionary)) continue;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    const data = pdf.subarray(start, end);
    let size: number;
    try {
      size = zlib.inflateSync(data, { maxOutputLength: left + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') continue; // not ours to judge: pdf.js reports a damaged stream
      size = left + 1;
    }
    left -= size;
    if (left < 0) throw overBudget(data);
  }
}

function overBudget(data: Buffer): IngestError {
  let sample: Buffer;
  try {
    sample = zlib.inflateSync(data.subarray(0, SAMPLE_BYTES), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    sample = Buffer.alloc(0);
  }
  if (TEXT_OPERATOR_RE.test(sample.toString('latin1'))) return tooLong('pdf', `${MAX_PDF_STREAM_BYTES / 1024 / 1024} MB of page content`);
  return new IngestError('file_too_complex', `The PDF's pages hold more than ${MAX_PDF_STREAM_BYTES / 1024 / 1024} MB of drawing instructions and no text; it may be damaged or built to overload readers.`);
}
