/**
 * Decide a transcript's format from its bytes alone (never from a declared content type or name).
 * Every function here is total: it never throws, whatever the input.
 */
import type { TranscriptFormat } from './transcript.ts';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const VTT_MAGIC = Buffer.from('WEBVTT', 'latin1');
/** The PDF spec tolerates junk before the header; readers conventionally look in the first 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;

export function sniffFileKind(bytes: Buffer): TranscriptFormat | null {
  try {
    if (isPdf(bytes)) return 'pdf';
    if (isDocx(bytes)) return 'docx';
    if (isVtt(bytes)) return 'vtt';
  } catch {
    // Defensive: the readers below bounds-check everything, but a sniffer must never throw.
  }
  return null;
}

function isPdf(bytes: Buffer): boolean {
  const at = bytes.subarray(0, PDF_HEADER_WINDOW + PDF_MAGIC.length).indexOf(PDF_MAGIC);
  return at >= 0 && at <= PDF_HEADER_WINDOW;
}

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The encoding of a WebVTT file: UTF-8 (the spec's), or UTF-16 as some Windows tools save it (BOM or not). */
export function vttEncoding(bytes: Buffer): TextEncoding | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return startsWithMagic(bytes, 2, 'utf-16le') ? 'utf-16le' : null;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return startsWithMagic(bytes, 2, 'utf-16be') ? 'utf-16be' : null;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (startsWithMagic(bytes, bom, 'utf-8')) return 'utf-8';
  if (startsWithMagic(bytes, 0, 'utf-16le')) return 'utf-16le';
  if (startsWithMagic(bytes, 0, 'utf-16be')) return 'utf-16be';
  return null;
}

/** "WEBVTT" at `at` in the encoding, followed by the end, a space, a tab or a line break. */
function startsWithMagic(bytes: Buffer, at: number, encoding: TextEncoding): boolean {
  const unit = encoding === 'utf-8' ? 1 : 2;
  const low = encoding === 'utf-16be' ? 1 : 0; // where the ASCII byte of a UTF-16 code unit sits
  if (bytes.length < at + VTT_MAGIC.length * unit) return false;
  for (let i = 0; i < VTT_MAGIC.length; i++) {
    if (bytes[at + i * unit + low] !== VTT_MAGIC[i]) return false;
    if (unit === 2 && bytes[at + i * unit + 1 - low] !== 0) return false;
  }
  const end = at + VTT_MAGIC.length * unit;
  if (end >= bytes.length) return true;
  if (unit === 2 && bytes[end + 1 - low] !== 0) return false;
  const next = bytes[end + low];
  return next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

function isVtt(bytes: Buffer): boolean {
  return vttEncoding(bytes) !== null;
}

function isDocx(bytes: Buffer): boolean {
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== LOCAL_HEADER_SIG) return false;
  const entries = zipEntries(bytes);
  // Word writes word/document.xml; some Office 365 saves use word/document2.xml (found via _rels/.rels).
  return entries !== null && entries.some((entry) => /^word\/document\d*\.xml$/.test(entry.name));
}

/**
 * A zip whose first entry is a part of a Word package, even when its directory cannot be read: a
 * DOCX, damaged (anything else in a zip is not a transcript). The first local header's name is at 30.
 */
export function isWordPackage(bytes: Buffer): boolean {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== LOCAL_HEADER_SIG) return false;
  const name = bytes.subarray(30, 30 + bytes.readUInt16LE(26)).toString('latin1');
  return /^(\[Content_Types\]\.xml|word\/|_rels\/|docProps\/|customXml\/)/.test(name);
}

/** A zip's local file header (`PK\x03\x04`), little-endian. */
export const LOCAL_HEADER_SIG = 0x04034b50;
const CENTRAL_HEADER_SIG = 0x02014b50;
const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const MAX_ENTRIES = 100_000;

export interface ZipEntry {
  name: string;
  /** As declared by the central directory (a hostile archive can lie). */
  uncompressedSize: number;
  /** 0 stored, 8 deflated; others are not read. */
  method: number;
  compressedSize: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

/**
 * The entries of a ZIP's central directory, or null when the directory can't be read (truncated,
 * not a zip, inconsistent offsets). Reads only the directory, never file data; never throws.
 */
export function zipEntries(bytes: Buffer): ZipEntry[] | null {
  try {
    return readCentralDirectory(bytes);
  } catch {
    return null;
  }
}

function readCentralDirectory(bytes: Buffer): ZipEntry[] | null {
  const eocd = findEocd(bytes);
  if (eocd < 0) return null;
  let count = bytes.readUInt16LE(eocd + 10);
  let size = bytes.readUInt32LE(eocd + 12);
  let offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const zip64 = readZip64(bytes, eocd);
    if (!zip64) return null;
    ({ count, size, offset } = zip64);
  }
  if (count > MAX_ENTRIES || offset + size > eocd) return null;
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || bytes.readUInt32LE(at) !== CENTRAL_HEADER_SIG) return null;
    const nameLen = bytes.readUInt16LE(at + 28);
    const extraLen = bytes.readUInt16LE(at + 30);
    const commentLen = bytes.readUInt16LE(at + 32);
    const end = at + 46 + nameLen;
    if (end > eocd) return null;
    // 0xffffffff means "see the zip64 extra field": treat as unknown-but-huge.
    const size = bytes.readUInt32LE(at + 24);
    entries.push({
      name: bytes.toString('utf8', at + 46, end),
      uncompressedSize: size === 0xffffffff ? Infinity : size,
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at = end + extraLen + commentLen;
  }
  return entries;
}

/** Offset of the end-of-central-directory record: scan backwards past an optional comment. */
function findEocd(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = bytes.length - EOCD_SIZE; at >= lowest; at--) {
    if (bytes[at] === 0x50 && bytes.readUInt32LE(at) === EOCD_SIG) {
      const commentLen = bytes.readUInt16LE(at + 20);
      if (at + EOCD_SIZE + commentLen <= bytes.length) return at;
    }
  }
  return -1;
}

function readZip64(bytes: Buffer, eocd: number): { count: number; size: number; offset: number } | null {
  const locator = eocd - 20;
  if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_LOCATOR_SIG) return null;
  const record = Number(bytes.readBigUInt64LE(locator + 8));
  if (!Number.isSafeInteger(record) || record < 0 || record + 56 > locator) return null;
  if (bytes.readUInt32LE(record) !== ZIP64_EOCD_SIG) return null;
  const count = Number(bytes.readBigUInt64LE(record + 32));
  const size = Number(bytes.readBigUInt64LE(record + 40));
  const offset = Number(bytes.readBigUInt64LE(record + 48));
  if (![count, size, offset].every(Number.isSafeInteger)) return null;
  // In zip64 archives the directory ends where the zip64 EOCD record starts.
  if (offset + size > record) return null;
  return { count, size, offset };
}
