/**
 * Transcript ingestion: decide the format from the bytes, parse, normalise. Every failure caused by
 * the file's content surfaces as an IngestError (unsupported_file_type / corrupt_file / empty_transcript).
 */
import { parseDocx } from './docx.ts';
import { parsePdf } from './pdf.ts';
import { sniffFileKind } from './sniff.ts';
import { collapseWhitespace } from './speakers.ts';
import { IngestError, type Transcript, type TranscriptFormat, type Utterance } from './transcript.ts';
import { parseVtt } from './vtt.ts';

export { sniffFileKind } from './sniff.ts';
export { parseVtt } from './vtt.ts';
export { parseDocx } from './docx.ts';
export { parsePdf } from './pdf.ts';

const NAMES: Record<TranscriptFormat, string> = { vtt: 'VTT', docx: 'DOCX', pdf: 'PDF' };

export async function parseTranscript(bytes: Buffer): Promise<Transcript> {
  const format = sniffFileKind(bytes);
  if (!format) {
    throw new IngestError('unsupported_file_type', 'The file is not a VTT, DOCX or PDF transcript (decided from its bytes).');
  }
  let raw: Utterance[];
  try {
    raw = await parse(format, bytes);
  } catch (err) {
    if (err instanceof IngestError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new IngestError(
      'corrupt_file',
      `The ${NAMES[format]} file could not be read: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`,
    );
  }
  const utterances = normalise(raw);
  if (utterances.length === 0) {
    throw new IngestError('empty_transcript', `The ${NAMES[format]} file contains no transcript text.`);
  }
  return { format, utterances };
}

function parse(format: TranscriptFormat, bytes: Buffer): Promise<Utterance[]> {
  switch (format) {
    case 'vtt':
      // Invalid UTF-8 becomes U+FFFD rather than an error; a BOM is dropped by the decoder.
      return Promise.resolve().then(() => parseVtt(new TextDecoder('utf-8').decode(bytes)));
    case 'docx':
      return parseDocx(bytes);
    case 'pdf':
      return parsePdf(bytes);
  }
}

/** Trim and collapse whitespace in texts and labels; drop utterances left without text. */
function normalise(utterances: Utterance[]): Utterance[] {
  const out: Utterance[] = [];
  for (const u of utterances) {
    const text = collapseWhitespace(u.text);
    if (!text) continue;
    const normalised: Utterance = { speaker: u.speaker === null ? null : collapseWhitespace(u.speaker) || null, text };
    if (u.start !== undefined && Number.isFinite(u.start)) normalised.start = u.start;
    if (u.end !== undefined && Number.isFinite(u.end)) normalised.end = u.end;
    if (u.page !== undefined) normalised.page = u.page;
    out.push(normalised);
  }
  return out;
}
