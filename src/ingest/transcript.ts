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
}

export interface Transcript {
  format: TranscriptFormat;
  utterances: Utterance[];
}

export type IngestErrorCode = 'unsupported_file_type' | 'corrupt_file' | 'empty_transcript';

/** A permanent problem with the file's content: the snapshot ends `failed` with this reason. */
export class IngestError extends Error {
  constructor(
    readonly code: IngestErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}
