/**
 * PDF → speaker turns. pdf.js (legacy build, the one meant for Node) reads the text in a thread of its
 * own (pdf-worker.ts, pdf-text.ts), which is ended when a file keeps it busy past a time budget: pdf.js
 * works through a page in one chain of promises that never yields to timers, so a content stream of
 * millions of drawing operators can only be stopped from outside. Here the text lines of each page have
 * their running headers/footers and page numbers dropped and are assembled into turns ("Q:"/"A:",
 * "NAME:", "Name:", "Name 0:03" headers) that may cross page breaks.
 */
import v8 from 'node:v8';
import { Piscina } from 'piscina';
import { IngestError, type Utterance } from './transcript.ts';
import { TextGate } from './limits.ts';
import type { PdfLine } from './pdf-text.ts';
import type { PdfReply, PdfRequest } from './pdf-worker.ts';
import { assembleTurns, timedHeader, type SourceLine } from './turns.ts';
import { checkPdfStreams } from './pdf-streams.ts';

export { groupLines, MAX_PDF_PAGES, MAX_PDF_TEXT_ITEMS, type PdfLine } from './pdf-text.ts';

/**
 * Wall-clock budget for reading one PDF, the backstop for what the limits on pages, text items and
 * words do not see (a content stream of millions of drawing operators and no text, however compressed).
 */
export const PDF_TIME_BUDGET_MS = 5_000;

const tooSlow = () =>
  new IngestError('file_too_complex', `The PDF took more than ${PDF_TIME_BUDGET_MS / 1000} s to read; it may be damaged or built to overload readers.`);
const tooBig = () =>
  new IngestError('file_too_complex', 'Reading the PDF needed more memory than an analysis may use; it may be damaged or built to overload readers.');

let pdfThread: Piscina<PdfRequest, PdfReply> | undefined;

/** The PDF thread of this thread: one file at a time, ended (and replaced) when a file runs past the budget. */
function pdfPool(): Piscina<PdfRequest, PdfReply> {
  if (!pdfThread) {
    pdfThread = new Piscina({
      filename: new URL('./pdf-worker.ts', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
      // Half the heap limit of this thread (an analysis thread has ANALYSIS_MAX_MEMORY_MB): the two stay within 1.5×.
      resourceLimits: { maxOldGenerationSizeMb: Math.max(128, Math.floor(v8.getHeapStatistics().heap_size_limit / 1024 / 1024 / 2)) },
    });
    // Once per pool (not per file): a thread that dies between files is replaced; the next read reports its own.
    pdfThread.on('error', () => undefined);
  }
  return pdfThread;
}

/** Starts the PDF thread (and pdf.js in it) ahead of the first PDF; analysis threads call it when they start. */
export function startPdfThread(): void {
  pdfPool();
}

async function readInThread(request: PdfRequest): Promise<PdfReply> {
  const pool = pdfPool();
  try {
    // The budget is for reading the file, not for starting the thread and pdf.js (pdf-worker.ts
    // `ready`): that can take seconds on a busy machine, for a PDF sent right after the service
    // started or after a thread was ended. Once pdf.js is loaded this is one message each way.
    await (pool as Piscina).run(undefined, { name: 'ready' });
    return await pool.run(request, { signal: AbortSignal.timeout(PDF_TIME_BUDGET_MS), transferList: [request.data.buffer as ArrayBuffer] });
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    if (e.name === 'AbortError' || e.name === 'TimeoutError') throw tooSlow();
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw tooBig();
    throw new IngestError('corrupt_file', `The PDF file could not be read: ${String(e.message).slice(0, 200)}`);
  }
}

/** @param gate counts the text against the file's budget (unlimited by default, for direct calls). */
export async function parsePdf(bytes: Buffer, gate = new TextGate('pdf', Infinity)): Promise<Utterance[]> {
  // Counted in bytes first, the same on every machine: what pdf.js's time budget would otherwise decide.
  if (Number.isFinite(gate.remaining)) checkPdfStreams(bytes);
  // A copy with its own buffer, handed over (not cloned) to the PDF thread.
  const reply = await readInThread({ data: new Uint8Array(bytes), maxTokens: gate.remaining });
  if (!reply.ok) throw new IngestError(reply.code, reply.message);
  gate.absorb(reply);
  return assembleTurns(toSourceLines(removeFurniture(reply.pages)));
}

const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*(\d{1,4})\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;
/** How many lines at the top and at the bottom of a page can be running headers/footers. */
const EDGE_LINES = 2;

/**
 * Drop page furniture: lines at the top/bottom of pages that recur (digits ignored) on at least half
 * of the pages, and bare page numbers ("3", "Page 3", "3 of 10", "- 3 -") at the top or bottom.
 */
export function removeFurniture(pages: PdfLine[][]): PdfLine[][] {
  const key = (line: PdfLine) => line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
  const isEdge = (j: number, count: number) => j < EDGE_LINES || j >= count - EDGE_LINES;
  const recurring = new Map<string, number>();
  for (const lines of pages) {
    const keys = new Set(lines.filter((_, j) => isEdge(j, lines.length)).map(key));
    for (const k of keys) recurring.set(k, (recurring.get(k) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((lines) =>
    lines.filter((line, j) => {
      if (!isEdge(j, lines.length)) return true;
      const number = PAGE_NUMBER.exec(line.text);
      if (number && Number(number[1]) <= pages.length + 10) return false;
      return (recurring.get(key(line)) ?? 0) < threshold;
    }),
  );
}

/**
 * Lines in reading order, marking where paragraphs start: after a larger-than-usual vertical gap, at
 * an indented line, or after a short line that ends a sentence (page breaks alone don't start one).
 */
export function toSourceLines(pages: PdfLine[][]): SourceLine[] {
  const out: SourceLine[] = [];
  let previous: PdfLine | undefined;
  let previousRight = 0;
  pages.forEach((lines, index) => {
    const spacing = medianSpacing(lines);
    const left = lines.reduce((min, l) => Math.min(min, l.x0), Infinity);
    const right = lines.reduce((max, l) => Math.max(max, l.x1), -Infinity);
    lines.forEach((line, j) => {
      let paragraphStart = previous === undefined;
      if (previous) {
        const samePage = j > 0;
        const gap = samePage ? previous.y - line.y : 0;
        const shortEnd = previous.x1 < previousRight - 4 * previous.size && /[.!?:"”’)]$/.test(previous.text);
        const indented = line.x0 > left + 1.5 * line.size;
        paragraphStart = (samePage && spacing > 0 && gap > 1.6 * spacing) || shortEnd || (samePage && indented);
      }
      const header = timedHeader(line.text);
      out.push(header ? { ...header, paragraphStart: true, page: index + 1 } : { text: line.text, paragraphStart, page: index + 1 });
      previous = line;
      previousRight = right;
    });
  });
  return out;
}

function medianSpacing(lines: PdfLine[]): number {
  const gaps: number[] = [];
  for (let j = 1; j < lines.length; j++) {
    const gap = (lines[j - 1]?.y ?? 0) - (lines[j]?.y ?? 0);
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}
