/**
 * Checks on a DOCX before mammoth reads it, so that reading it stays within a few seconds and a bounded
 * heap: every XML part is unzipped here with a cap on its real size (the sizes a zip declares can lie),
 * and scanned for what Word never writes and mammoth pays dearly for (deep nesting, huge tags, a DTD,
 * hundreds of thousands of elements: mammoth builds a DOM and then its own tree, ~10 µs per element).
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { LOCAL_HEADER_SIG, zipEntries, type ZipEntry } from './sniff.ts';
import { IngestError } from './transcript.ts';
import { tooLong } from './limits.ts';

/** All XML parts (document, styles, numbering, notes, relationships…) together, unzipped. */
export const MAX_DOCX_XML_BYTES = 16 * 1024 * 1024;
/** Elements in all XML parts: a 100,000-word interview written by Word has about 60,000. */
export const MAX_DOCX_XML_ELEMENTS = 250_000;
/** Nesting depth of the XML (Word nests tables in tables, a few dozen levels at most). */
export const MAX_XML_DEPTH = 256;
/** One tag with its attributes. */
export const MAX_XML_TAG_BYTES = 16 * 1024;
/** Parts of the archive (Word writes a dozen or two, a few hundred with many images). */
export const MAX_DOCX_PARTS = 2000;
/** Declared size of everything in the archive, media included (mammoth does not unzip media for text). */
const MAX_DECLARED_BYTES = 256 * 1024 * 1024;

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

const tooComplex = (why: string) => new IngestError('file_too_complex', `The DOCX file ${why}; it may be damaged or built to overload readers.`);
const corrupt = (why: string) => new IngestError('corrupt_file', `The DOCX file could not be read: ${why}.`);

/** Throws an IngestError when the DOCX is damaged, a zip bomb, or shaped beyond what a transcript needs. */
export function checkDocx(bytes: Buffer): void {
  const entries = zipEntries(bytes);
  if (!entries) throw corrupt('its zip directory is damaged or truncated');
  if (entries.length > MAX_DOCX_PARTS) throw tooComplex(`has more than ${MAX_DOCX_PARTS.toLocaleString('en-US')} parts`);
  const parts = entries.filter((e) => /\.(?:xml|rels)$/i.test(e.name));
  // A relationship can make a part of any name the document (or its styles, notes…): read as XML too.
  const targets = referenced(bytes, parts);
  parts.push(...entries.filter((e) => !parts.includes(e) && targets.has(e.name)));
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  const declaredXml = parts.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > MAX_DECLARED_BYTES || declaredXml > MAX_DOCX_XML_BYTES) {
    throw tooComplex(`expands to more than ${mb(declared > MAX_DECLARED_BYTES ? MAX_DECLARED_BYTES : MAX_DOCX_XML_BYTES)} once unzipped`);
  }
  let budget = MAX_DOCX_XML_BYTES;
  let elements = 0;
  for (const part of parts) {
    const xml = unzipEntry(bytes, part, budget);
    budget -= xml.length;
    elements += scanXml(xml, part.name, MAX_DOCX_XML_ELEMENTS - elements);
  }
}

/** What mammoth reads as XML, by relationship type (whatever the part's name). */
const READ_AS_XML = /Type="[^"]*\/(?:officeDocument|styles|numbering|footnotes|endnotes|comments)"/;

/** Parts that relationships make the document, its styles, numbering, notes or comments. */
function referenced(bytes: Buffer, parts: readonly ZipEntry[]): Set<string> {
  const names = new Set<string>();
  for (const rels of parts.filter((e) => e.name.endsWith('.rels'))) {
    const xml = unzipEntry(bytes, rels, MAX_DOCX_XML_BYTES).toString('utf8');
    const base = rels.name.replace(/_rels\/[^/]*$/, '');
    for (const [tag] of xml.matchAll(/<Relationship\b[^>]*>/g)) {
      const target = /\bTarget="([^"]*)"/.exec(tag)?.[1];
      if (!target || /TargetMode="External"/.test(tag) || !READ_AS_XML.test(tag)) continue;
      names.add(path.posix.normalize(target.startsWith('/') ? target.slice(1) : base + target));
    }
  }
  return names;
}

/** An entry's bytes, unzipped with a cap on their real size. */
function unzipEntry(bytes: Buffer, entry: ZipEntry, maxBytes: number): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER_SIG) throw corrupt(`${entry.name} is missing`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (start + entry.compressedSize > bytes.length) throw corrupt(`${entry.name} is cut short (the file is truncated)`);
  if (entry.method === 0) {
    if (data.length > maxBytes) throw tooComplex(`expands to more than ${mb(MAX_DOCX_XML_BYTES)} of XML once unzipped`);
    return data;
  }
  if (entry.method !== 8) throw corrupt(`${entry.name} uses a compression method Word does not write`);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw tooComplex(`expands to more than ${mb(MAX_DOCX_XML_BYTES)} of XML once unzipped`);
    }
    throw corrupt(`${entry.name} cannot be unzipped`);
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUOTE = 0x22;
const APOS = 0x27;

/**
 * One linear pass over an XML part: depth, tag sizes and a DTD are checked, elements counted (at most
 * `maxElements`). Tags are found by '<' and the next '>' outside quotes; approximate on malformed XML,
 * which mammoth then refuses on its own.
 */
function scanXml(xml: Buffer, name: string, maxElements: number): number {
  let depth = 0;
  let elements = 0;
  for (let lt = xml.indexOf(LT); lt >= 0; lt = xml.indexOf(LT, lt + 1)) {
    const next = xml[lt + 1];
    if (next === 0x21 /* ! */) {
      if (xml.subarray(lt, lt + 4).toString('latin1') === '<!--') {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) break;
        lt = end;
        continue;
      }
      if (xml.subarray(lt, lt + 9).toString('latin1') === '<![CDATA[') {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) break;
        lt = end;
        continue;
      }
      throw tooComplex(`declares a DTD in ${name}, which Word never writes`);
    }
    const gt = tagEnd(xml, lt);
    if (gt < 0) break;
    if (gt - lt > MAX_XML_TAG_BYTES) throw tooComplex(`has an XML tag of more than ${MAX_XML_TAG_BYTES / 1024} KB in ${name}`);
    if (next === SLASH) depth--;
    else if (next !== 0x3f /* ? */) {
      if (++elements > maxElements) {
        throw tooLong('docx', `${MAX_DOCX_XML_ELEMENTS.toLocaleString('en-US')} XML elements (paragraphs, runs of text, formatting)`);
      }
      if (xml[gt - 1] !== SLASH && ++depth > MAX_XML_DEPTH) throw tooComplex(`nests its XML more than ${MAX_XML_DEPTH} levels deep`);
    }
    lt = gt;
  }
  return elements;
}

/** The '>' that closes the tag opening at `lt` (not one inside a quoted attribute value); -1 at the end of the part. */
function tagEnd(xml: Buffer, lt: number): number {
  const limit = Math.min(xml.length, lt + MAX_XML_TAG_BYTES + 1);
  let quote = 0;
  for (let i = lt + 1; i < limit; i++) {
    const c = xml[i];
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === APOS) quote = c;
    else if (c === GT) return i;
  }
  return limit < xml.length ? limit : -1;
}
