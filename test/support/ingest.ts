import { IngestError, type Utterance } from '../../src/ingest/transcript.ts';

/** Shared helpers of the parser tests. */
export const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export const said = (us: Utterance[]) => us.map((u) => [u.speaker, u.text]);

export const isIngestError = (code: IngestError['code']) => (err: unknown) => err instanceof IngestError && err.code === code;
