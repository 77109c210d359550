/**
 * DOCX → speaker turns, via mammoth's raw-text extraction (one paragraph per "\n\n"-terminated block).
 * Understands transcription-tool exports ("Speaker 1  0:03" / "Dana Reyes  00:01:07" header
 * paragraphs, Rev-style "Dana Reyes (00:01:07):"), "Name: text" and "Q:"/"A:" paragraphs, and plain prose.
 */
import mammoth from 'mammoth';
import { IngestError, type Utterance } from './transcript.ts';
import { zipEntries } from './sniff.ts';
import { assembleTurns, timedHeader, type SourceLine } from './turns.ts';

/** Refuse archives whose parts declare more than this much uncompressed XML (zip bombs). */
const MAX_UNCOMPRESSED_BYTES = 256 * 1024 * 1024;

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
    const text = paragraph.trimEnd();
    if (!text.trim()) continue;
    const header = timedHeader(text);
    lines.push(header ? { text: header.text, paragraphStart: true, header: header.header } : { text, paragraphStart: true });
  }
  return lines;
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}
