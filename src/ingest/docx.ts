/**
 * DOCX → speaker turns, via mammoth's raw-text extraction (one paragraph per "\n\n"-terminated block).
 * Understands transcription-tool exports ("Speaker 1  0:03" / "Dana Reyes  00:01:07" header
 * paragraphs, Rev-style "Dana Reyes (00:01:07):"), "Name: text" and "Q:"/"A:" paragraphs, and plain prose.
 */
import { IngestError, type Utterance } from './transcript.ts';
import { checkDocx } from './docx-limits.ts';
import { TextGate } from './limits.ts';
import { assembleTurns, timedHeader, type SourceLine } from './turns.ts';

/** mammoth, loaded with the first DOCX (an analysis thread that reads none never loads it). */
const loadMammoth = () => import('mammoth');
let mammoth: ReturnType<typeof loadMammoth> | undefined;

/** @param gate counts the text against the file's budget (unlimited by default, for direct calls). */
export async function parseDocx(bytes: Buffer, gate = new TextGate('docx', Infinity)): Promise<Utterance[]> {
  checkDocx(bytes); // zip bombs, deep or huge XML: refused before mammoth builds a DOM of them
  const { extractRawText } = (await (mammoth ??= loadMammoth())).default;
  let raw: string;
  try {
    raw = (await extractRawText({ buffer: bytes })).value;
  } catch (err) {
    throw new IngestError('corrupt_file', `The DOCX file could not be read: ${describe(err)}`);
  }
  return assembleTurns(docxLines(raw, gate));
}

/** Paragraphs of mammoth's raw text as source lines, with transcription-tool headers recognised. */
export function docxLines(raw: string, gate = new TextGate('docx', Infinity)): SourceLine[] {
  const lines: SourceLine[] = [];
  for (const paragraph of raw.split('\n\n')) {
    const text = gate.pass(paragraph).trimEnd();
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
