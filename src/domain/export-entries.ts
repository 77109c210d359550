import type { Readable } from 'node:stream';

/**
 * The files of a mind's export, as the domain describes them and a writer (http/export-archive.ts)
 * packs them: each is produced only when the writer reaches it, so a big mind is streamed, never
 * held. README.json is written last, from what each file turned out to hold.
 */
interface EntryBase {
  /** The path in the archive (folders separated by `/`). */
  path: string;
  /** What the file is, for README.json. */
  description: string;
  /** What `count` counts in README.json (e.g. "memories"). */
  unit: string;
}

/** One JSON document, read when written (undefined: it disappeared meanwhile, written as null). */
export interface DocumentEntry extends EntryBase {
  kind: 'document';
  read(): Promise<unknown>;
  /** How many `unit`s the document holds. */
  countOf(value: unknown): number;
}

/** A JSON array, one item at a time. */
export interface ListEntry extends EntryBase {
  kind: 'list';
  items(): AsyncIterable<unknown>;
}

/** A table, written as CSV with a header row (the one CSV writer: formula cells neutralised). */
export interface TableEntry extends EntryBase {
  kind: 'table';
  columns: readonly string[];
  rows(): AsyncIterable<readonly unknown[]>;
}

/** A file as it was uploaded, streamed from the blob store. */
export interface FileEntry extends EntryBase {
  kind: 'file';
  open(): Promise<Readable>;
  /** Its size in bytes when known (from the upload). */
  size: number | null;
}

export type ExportEntry = DocumentEntry | ListEntry | TableEntry | FileEntry;

/** How README.json names each kind's format. */
export const FORMAT_OF: Record<ExportEntry['kind'], string> = {
  document: 'JSON',
  list: 'JSON (an array)',
  table: "CSV (RFC 4180, UTF-8, a header row; a text cell beginning with = + - @, a tab or a carriage return starts with ' so a spreadsheet shows it as text)",
  file: 'the file as it was uploaded (WebVTT, DOCX or PDF)',
};

/** A mind's export: its files in order, and the README written after them. */
export interface MindExport {
  mindId: string;
  /** A safe file name for the archive: `mindsim-export-<slug>-<YYYY-MM-DD>.zip` (ASCII letters, digits and dashes). */
  fileName: string;
  exportedAt: string;
  entries: ExportEntry[];
  /** README.json, given how many `unit`s each file held once written. */
  readme(counts: ReadonlyMap<string, number>): unknown;
}

export const EXPORT_FORMAT = 'mindsim-export/1';

/** What the service keeps about a mind and leaves out of its export, with why (README.json says so). */
export const NOT_INCLUDED = [
  'The numeric vectors of the passages (derived from the memories by a sentence encoder: numbers, no words; erased with their snapshot).',
  "Usage counters (how many simulations an API key ran per day, and which twins): counts about the account's use, no words.",
  'Jobs of the queue (which snapshot or simulation a worker is processing): transient, deleted with what they name.',
  "The account's API keys, login and sessions: the account's, not the person's.",
];
