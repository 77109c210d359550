/**
 * Transcript ingestion: decide the format from the bytes, parse, normalise. Every failure caused by
 * the file's content surfaces as an IngestError (its codes in transcript.ts); the limits that keep any
 * file's reading within a few seconds are in limits.ts, docx-limits.ts and pdf-text.ts.
 */
import { parseDocx } from './docx.ts';
import { FORMAT_NAMES, MAX_SPEAKER_CHARS, MAX_TURNS, TextGate, tooLong } from './limits.ts';
import { parsePdf } from './pdf.ts';
import { isWordPackage, sniffFileKind, vttEncoding } from './sniff.ts';
import { collapsedSpans } from './spans.ts';
import { collapseWhitespace } from './speakers.ts';
import { IngestError, type Transcript, type TranscriptFormat, type Utterance } from './transcript.ts';
import { parseVtt } from './vtt.ts';

export { sniffFileKind } from './sniff.ts';
export { parseVtt } from './vtt.ts';
export { parseDocx } from './docx.ts';
export { parsePdf } from './pdf.ts';

export async function parseTranscript(bytes: Buffer): Promise<Transcript> {
  const format = sniffFileKind(bytes);
  if (!format) {
    if (isWordPackage(bytes)) {
      throw new IngestError('corrupt_file', 'The file is a zip archive but not a readable DOCX: it may be truncated or damaged.');
    }
    throw new IngestError('unsupported_file_type', 'The file is not a VTT, DOCX or PDF transcript (decided from its bytes).');
  }
  // One budget for the whole file: the parsers stop as soon as it holds too much text.
  const gate = new TextGate(format);
  let raw: Utterance[];
  try {
    raw = await parse(format, bytes, gate);
  } catch (err) {
    if (err instanceof IngestError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new IngestError(
      'corrupt_file',
      `The ${FORMAT_NAMES[format]} file could not be read: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`,
    );
  }
  const utterances = normalise(raw);
  if (utterances.length === 0) throw gate.emptyError();
  if (utterances.length > MAX_TURNS) throw tooLong(format, `${MAX_TURNS.toLocaleString('en-US')} speaker turns`);
  return { format, utterances };
}

function parse(format: TranscriptFormat, bytes: Buffer, gate: TextGate): Promise<Utterance[]> {
  switch (format) {
    case 'vtt':
      // Invalid UTF-8 (or UTF-16) becomes U+FFFD rather than an error; a BOM is dropped by the decoder.
      return Promise.resolve().then(() => parseVtt(new TextDecoder(vttEncoding(bytes) ?? 'utf-8').decode(bytes), gate));
    case 'docx':
      return parseDocx(bytes, gate);
    case 'pdf':
      return parsePdf(bytes, gate);
  }
}

/** Trim and collapse whitespace in texts and labels (the spans of a text follow it); drop utterances left without text. */
function normalise(utterances: Utterance[]): Utterance[] {
  const out: Utterance[] = [];
  for (const u of utterances) {
    const text = collapseWhitespace(u.text);
    if (!text) continue;
    const speaker = u.speaker === null ? null : collapseWhitespace(u.speaker).slice(0, MAX_SPEAKER_CHARS).trim() || null;
    const normalised: Utterance = { speaker, text };
    if (u.start !== undefined && Number.isFinite(u.start)) normalised.start = u.start;
    if (u.end !== undefined && Number.isFinite(u.end)) normalised.end = u.end;
    if (u.page !== undefined) normalised.page = u.page;
    const spans = u.spans && collapsedSpans(u.text, text, u.spans, normalised);
    if (spans) normalised.spans = spans;
    out.push(normalised);
  }
  return out;
}
