/** What every parser produces: a transcript as a list of utterances, in order. */
export type TranscriptFormat = 'vtt' | 'docx' | 'pdf';

export interface Utterance {
  /** Speaker label as written in the source, trimmed; null when the source names nobody. */
  speaker: string | null;
  text: string;
  /** Seconds from the start of the recording (VTT cues, DOCX timestamps). */
  start?: number;
  end?: number;
  /** 1-based page number (PDF). */
  page?: number;
  /**
   * Where each piece of `text` came from, when an utterance was merged from pieces that differ in
   * time or page (several VTT cues, timestamped DOCX or PDF paragraphs of one speaker, a turn
   * crossing a PDF page): in order, the first at 0. Absent when `start`, `end` and `page` hold for
   * the whole text. A sentence's own times are those of the pieces holding its first and last words.
   */
  spans?: TextSpan[];
}

/** A piece of an utterance's text: from `at` (an offset in the text) to the next span's `at`, or to the end. */
export interface TextSpan {
  at: number;
  /** Seconds from the start of the recording: the cue's (VTT), the timestamp above the paragraph (DOCX, PDF). */
  start?: number;
  /** Seconds: the cue's end (VTT; DOCX and PDF timestamps give no ends). */
  end?: number;
  /** 1-based page (PDF). */
  page?: number;
}

export interface Transcript {
  format: TranscriptFormat;
  utterances: Utterance[];
}

export type IngestErrorCode =
  | 'unsupported_file_type'
  | 'corrupt_file'
  | 'empty_transcript'
  /** Text, but no words: only runs of characters too long to be words (limits.ts). */
  | 'transcript_unreadable'
  /** More words, cues, paragraphs or XML elements than one snapshot reads (limits.ts). */
  | 'transcript_too_long'
  /** More pages than one snapshot reads (pdf.ts). */
  | 'too_many_pages'
  /** A zip bomb, or XML or PDF content shaped to overload readers. */
  | 'file_too_complex';

/** A permanent problem with the file's content: the snapshot ends `failed` with this reason. */
export class IngestError extends Error {
  readonly code: IngestErrorCode;
  constructor(code: IngestErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = 'IngestError';
  }
}
