/**
 * pdf.js → text lines, page by page. Runs in the PDF thread (pdf-worker.ts): pdf.js evaluates a page
 * in one unbroken chain of promises that never yields to timers, so only another thread can stop it.
 * Text items are streamed and counted against the file's budget, and regrouped into visual lines.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { IngestError } from './transcript.ts';
import { TextGate, tooLong } from './limits.ts';

/** Pages one file may have (a dense transcript page holds ~300 words: 500 pages is the word budget's worth). */
export const MAX_PDF_PAGES = 500;
/** Text items (runs of text drawn at one place) in one file: pdf.js spends ~30 µs on each. */
export const MAX_PDF_TEXT_ITEMS = 100_000;
const PAGES_IN_FLIGHT = 8;

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<Pdfjs> | undefined;
/**
 * pdf.js is loaded on first use (it costs ~100 ms and more on a cold disk), so processes that never
 * read a PDF never pay for it; the PDF thread calls this when it starts, ahead of its first file.
 * Its worker half (which runs in this same thread) is loaded with it and handed over as
 * `globalThis.pdfjsWorker`, where pdf.js looks first: otherwise the first document imports it, twice
 * the size of pdf.mjs, inside that file's time budget.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]).then(
    ([lib, worker]) => {
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return lib;
    },
  );
  return pdfjs;
}

// Local data directories shipped with pdfjs-dist: standard-14 font metrics and CJK CMaps (needed
// to map CID fonts to Unicode). pdf.js reads them with fs in Node; nothing is fetched over a network.
const PDFJS_DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = path.join(PDFJS_DIR, 'standard_fonts') + path.sep;
const CMAPS = path.join(PDFJS_DIR, 'cmaps') + path.sep;

export interface PdfLine {
  text: string;
  /** Baseline, in PDF user space (grows upwards). */
  y: number;
  x0: number;
  x1: number;
  size: number;
}

/** The text lines of each page, made readable and counted by `gate`; IngestError for every problem with the file. */
export async function extractPdfLines(data: Uint8Array, gate: TextGate): Promise<PdfLine[][]> {
  const { getDocument } = await loadPdfjs();
  const task = getDocument({
    data, // pdf.js takes ownership of it (and refuses Node Buffers)
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
    standardFontDataUrl: STANDARD_FONTS,
    cMapUrl: CMAPS,
    cMapPacked: true,
    stopAtErrors: false,
    verbosity: 0, // errors only; hostile files otherwise spam warnings to stdout
  });
  try {
    const doc = await task.promise;
    if (doc.numPages > MAX_PDF_PAGES) {
      throw new IngestError(
        'too_many_pages',
        `The PDF has ${doc.numPages.toLocaleString('en-US')} pages; one snapshot reads at most ${MAX_PDF_PAGES} pages. ` +
          'Split it into several files; a mind can hold many snapshots.',
      );
    }
    const items = { count: 0 };
    const pages: PdfLine[][] = [];
    // A few pages in flight at a time: fewer round trips through pdf.js's (in-thread) worker protocol.
    for (let first = 1; first <= doc.numPages; first += PAGES_IN_FLIGHT) {
      const batch = [];
      for (let p = first; p < first + PAGES_IN_FLIGHT && p <= doc.numPages; p++) {
        batch.push(
          doc.getPage(p).then(async (page) => {
            const content = await pageText(page, gate, items);
            page.cleanup();
            return groupLines(content).flatMap((line) => {
              const text = gate.readable(line.text);
              return text ? [{ ...line, text }] : [];
            });
          }),
        );
      }
      pages.push(...(await Promise.all(batch)));
    }
    return pages;
  } catch (err) {
    if (err instanceof IngestError) throw err;
    throw new IngestError('corrupt_file', describePdfError(err));
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<Pdfjs['getDocument']>['promise']>['getPage']>>;

/**
 * A page's text items, streamed from pdf.js so that a page with millions of them (one huge content
 * stream, or a small one that inflates to hundreds of MB) is given up on as soon as the file's budget is spent.
 */
async function pageText(page: PdfPage, gate: TextGate, items: { count: number }): Promise<object[]> {
  const reader = page.streamTextContent().getReader();
  const out: object[] = [];
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      for (const item of (chunk.value as { items: object[] }).items) {
        if (++items.count > MAX_PDF_TEXT_ITEMS) throw tooLong('pdf', `${MAX_PDF_TEXT_ITEMS.toLocaleString('en-US')} separately drawn pieces of text`);
        if ('str' in item && typeof item.str === 'string') gate.count(item.str);
        out.push(item);
      }
    }
  } finally {
    // pdf.js needs a reason (an Error) to stop evaluating the page; without one it goes on to the end.
    await reader.cancel(new Error('The text of this page is no longer needed.')).catch(() => undefined);
  }
  return out;
}

function describePdfError(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') return 'The PDF is password-protected; upload an unencrypted copy.';
  const message = err instanceof Error ? err.message : String(err);
  return `The PDF file could not be read (it may be truncated or damaged): ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

/** Regroup pdf.js text items into visual lines, top to bottom, each read left to right. */
export function groupLines(items: ReadonlyArray<object>): PdfLine[] {
  const runs: TextRun[] = [];
  for (const item of items) {
    if (!('str' in item) || typeof item.str !== 'string' || !item.str) continue;
    const { transform, width, height } = item as { transform?: unknown; width?: unknown; height?: unknown };
    if (!Array.isArray(transform)) continue;
    const [, , c, d, x, y] = transform as number[];
    const size = Math.hypot(c ?? 0, d ?? 0) || (typeof height === 'number' ? height : 0) || 1;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    runs.push({ str: item.str, x: x ?? 0, y: y ?? 0, width: typeof width === 'number' ? width : 0, size });
  }
  runs.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: TextRun[][] = [];
  let current: TextRun[] = [];
  for (const run of runs) {
    const head = current[0];
    if (head && Math.abs(head.y - run.y) > 0.5 * Math.min(head.size, run.size)) {
      lines.push(current);
      current = [];
    }
    current.push(run);
  }
  if (current.length) lines.push(current);
  return lines.map(joinRuns).filter((line) => line.text !== '');
}

function joinRuns(runs: TextRun[]): PdfLine {
  runs.sort((a, b) => a.x - b.x);
  let text = '';
  let end = -Infinity;
  let previous: TextRun | undefined;
  for (const run of runs) {
    // Fake bold: the same string drawn twice at (almost) the same spot.
    if (previous && previous.str === run.str && Math.abs(previous.x - run.x) < 0.2 * run.size) continue;
    const gap = run.x - end;
    if (text && gap > 0.15 * run.size && !endsWithSpace(text) && !/^\s/.test(run.str)) text += ' ';
    text += run.str;
    end = Math.max(end, run.x + run.width);
    previous = run;
  }
  const first = runs[0];
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    y: first?.y ?? 0,
    x0: first?.x ?? 0,
    x1: end,
    size: runs.reduce((max, r) => Math.max(max, r.size), 0),
  };
}

/** Whether a line read so far ends with a space (`/\s$/` would rescan the whole, growing line each time). */
const endsWithSpace = (text: string) => /\s/.test(text.charAt(text.length - 1));
