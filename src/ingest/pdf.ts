/**
 * PDF → speaker turns via pdf.js (legacy build, which is the one meant for Node). Text items are
 * regrouped into visual lines, running headers/footers and page numbers are dropped, and the lines
 * are assembled into turns ("Q:"/"A:", "NAME:", "Name:", "Name 0:03" headers) that may cross page breaks.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { IngestError, type Utterance } from './transcript.ts';
import { assembleTurns, timedHeader, type SourceLine } from './turns.ts';

export const MAX_PDF_PAGES = 2000;
/** Wall-clock budget for one document; pdf.js runs on this thread in Node, so keep it bounded. */
const TIME_BUDGET_MS = 60_000;
const PAGES_IN_FLIGHT = 8;

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<Pdfjs> | undefined;
/**
 * pdf.js is loaded on first use (it costs ~100 ms and more on a cold disk), so processes that never
 * read a PDF never pay for it; an analysis thread calls this when it starts, ahead of its first file.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
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

export async function parsePdf(bytes: Buffer): Promise<Utterance[]> {
  const { getDocument } = await loadPdfjs();
  const deadline = Date.now() + TIME_BUDGET_MS;
  const task = getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js takes ownership of (and refuses) Node Buffers
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
    const doc = await withinBudget(task.promise, deadline);
    const pageCount = Math.min(doc.numPages, MAX_PDF_PAGES);
    const pages: PdfLine[][] = [];
    // A few pages in flight at a time: fewer round trips through pdf.js's (in-thread) worker protocol.
    for (let first = 1; first <= pageCount; first += PAGES_IN_FLIGHT) {
      const batch = [];
      for (let p = first; p < first + PAGES_IN_FLIGHT && p <= pageCount; p++) {
        batch.push(
          doc.getPage(p).then(async (page) => {
            const content = await page.getTextContent();
            page.cleanup();
            return groupLines(content.items);
          }),
        );
      }
      pages.push(...(await withinBudget(Promise.all(batch), deadline)));
    }
    return assembleTurns(toSourceLines(removeFurniture(pages)));
  } catch (err) {
    if (err instanceof IngestError) throw err;
    throw new IngestError('corrupt_file', describePdfError(err));
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

function describePdfError(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') return 'The PDF is password-protected; upload an unencrypted copy.';
  const message = err instanceof Error ? err.message : String(err);
  return `The PDF file could not be read: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

function withinBudget<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new IngestError('corrupt_file', 'The PDF took too long to read; it may be damaged or malicious.')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
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
    if (text && gap > 0.15 * run.size && !/\s$/.test(text) && !/^\s/.test(run.str)) text += ' ';
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
