/**
 * The PDF thread's task (see pdf.ts, run by piscina): reads one PDF with pdf.js and answers with its
 * text lines, or with the IngestError that ends the snapshot. pdf.js is loaded as soon as the thread starts.
 */
import { TextGate } from './limits.ts';
import { extractPdfLines, loadPdfjs, type PdfLine } from './pdf-text.ts';
import { IngestError, type IngestErrorCode } from './transcript.ts';

export interface PdfRequest {
  data: Uint8Array;
  /** What is left of the file's budget (TextGate). */
  maxTokens: number;
  /** Only load pdf.js and answer: the thread's start, which the time budget of a file does not count. */
  warmUp?: boolean;
}

export type PdfReply =
  | { ok: true; pages: PdfLine[][]; tokens: number; skippedRuns: number; longestSkipped: number }
  | { ok: false; code: IngestErrorCode; message: string };

void loadPdfjs().catch(() => undefined); // a failure shows, with its reason, when a PDF is read

export default async function read({ data, maxTokens, warmUp }: PdfRequest): Promise<PdfReply> {
  if (warmUp) {
    await loadPdfjs();
    return { ok: true, pages: [], tokens: 0, skippedRuns: 0, longestSkipped: 0 };
  }
  const gate = new TextGate('pdf', maxTokens);
  try {
    const pages = await extractPdfLines(data, gate);
    return { ok: true, pages, tokens: gate.tokens, skippedRuns: gate.skippedRuns, longestSkipped: gate.longestSkipped };
  } catch (err) {
    if (err instanceof IngestError) return { ok: false, code: err.code, message: err.message };
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, code: 'corrupt_file', message: `The PDF file could not be read: ${message.slice(0, 200)}` };
  }
}
