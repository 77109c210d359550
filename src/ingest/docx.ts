/**
 * DOCX → speaker turns, via mammoth's raw-text extraction (one paragraph per "\n\n"-terminated block).
 * Understands transcription-tool exports ("Speaker 1  0:03" / "Dana Reyes  00:01:07" header
 * paragraphs, Rev-style "Dana Reyes (00:01:07):"), "Name: text" and "Q:"/"A:" paragraphs, and plain prose.
 */
import mammoth from 'mammoth';
import { IngestError, type Utterance } from './transcript.ts';
import { zipEntries } from './sniff.ts';
import { looksLikeName, parseClock } from './speakers.ts';
import { assembleTurns, type SourceLine } from './turns.ts';

/** Refuse archives whose parts declare more than this much uncompressed XML (zip bombs). */
const MAX_UNCOMPRESSED_BYTES = 256 * 1024 * 1024;

const CLOCK = String.raw`\d{1,3}(?::\d{2}){1,2}(?:[.,]\d{1,3})?`;
/** "Dana Reyes  00:01:07" — name, then two or more spaces or a tab, then the time (text may follow). */
const OTTER_HEADER = new RegExp(String.raw`^(\S.{0,59}?)(?: {2,}|\t)\s*(${CLOCK})(?=\s|$)`);
/** "Dana Reyes (00:01:07):" or "Dana Reyes [01:07]" (Rev, Temi). */
const BRACKET_HEADER = new RegExp(String.raw`^(\S.{0,59}?)\s*[([](${CLOCK})[)\]]\s*:?(?=\s|$)`);

export async function parseDocx(bytes: Buffer): Promise<Utterance[]> {
  const declared = zipEntries(bytes)?.reduce((sum, entry) => sum + entry.uncompressedSize, 0) ?? 0;
  if (declared > MAX_UNCOMPRESSED_BYTES) {
    throw new IngestError('corrupt_file', 'The DOCX file expands to more data than a transcript can plausibly hold.');
  }
  let raw: string;
  try {
    raw = (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch (err) {
    throw new IngestError('corrupt_file', `The DOCX file could not be read: ${describe(err)}`);
  }
  return assembleTurns(docxLines(raw));
}

/** Paragraphs of mammoth's raw text as source lines, with transcription-tool headers recognised. */
export function docxLines(raw: string): SourceLine[] {
  const lines: SourceLine[] = [];
  for (const paragraph of raw.split('\n\n')) {
    const text = paragraph.replace(/\s+$/, '');
    if (!text.trim()) continue;
    const header = timedHeader(text);
    lines.push(header ? { text: header.text, paragraphStart: true, header: header.header } : { text, paragraphStart: true });
  }
  return lines;
}

function timedHeader(text: string): { header: { speaker: string; start: number }; text: string } | null {
  // Headers are short: match on the paragraph's head only, which also bounds the regex work.
  const head = text.slice(0, 100);
  for (const pattern of [OTTER_HEADER, BRACKET_HEADER]) {
    const m = pattern.exec(head);
    const speaker = m?.[1]?.trim();
    const start = parseClock(m?.[2] ?? '');
    if (m && speaker && start !== null && looksLikeName(speaker)) {
      return { header: { speaker, start }, text: text.slice(m[0].length) };
    }
  }
  return null;
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}
