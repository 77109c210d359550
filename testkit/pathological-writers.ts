/**
 * Writers for the pathological corpus (testkit/pathological.ts): DOCX packages from raw
 * WordprocessingML with fflate (so the XML can be as deep, wide or repetitive as a test needs, and
 * the zip's directory can lie), and PDFs through pdfkit with raw content streams.
 */
import zlib from 'node:zlib';
import { strToU8, zipSync, type Zippable } from 'fflate';
import PDFDocument from 'pdfkit';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>';

export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One `<w:p>` holding one run of text. */
export const paragraphXml = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;

/**
 * A minimal DOCX whose `<w:body>` is exactly `body` (chunks are joined); `level` 9 for zip bombs, faster
 * otherwise; `extraParts` more (empty) XML parts in the archive; `documentPart` names the main part
 * (what _rels/.rels points to; word/document.xml is then a decoy).
 */
export function docxFromBody(body: string | string[], level: 1 | 6 | 9 = 6, extraParts = 0, documentPart = 'word/document.xml'): Buffer {
  const xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${
    typeof body === 'string' ? body : body.join('')
  }</w:body></w:document>`;
  const files: Zippable = {
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS.replace('Target="word/document.xml"', `Target="${documentPart}"`)),
    'word/document.xml': strToU8(documentPart === 'word/document.xml' ? xml : xml.slice(0, 200) + '</w:body></w:document>'),
    [documentPart]: strToU8(xml),
  };
  for (let i = 0; i < extraParts; i++) files[`customXml/item${i}.xml`] = strToU8('<a/>');
  return Buffer.from(zipSync(files, { level }));
}

/**
 * Rewrites the uncompressed size of every entry named `name` in a zip's central directory and local
 * header (a zip bomb that lies about its size, so size checks on the directory alone pass it).
 */
export function lieAboutSize(zip: Buffer, name: string, declared: number): Buffer {
  const out = Buffer.from(zip);
  const target = Buffer.from(name, 'utf8');
  for (let at = 0; at + 46 < out.length; at++) {
    const sig = out.readUInt32LE(at);
    if (sig === 0x04034b50 && out.subarray(at + 30, at + 30 + target.length).equals(target)) out.writeUInt32LE(declared, at + 22);
    if (sig === 0x02014b50 && out.subarray(at + 46, at + 46 + target.length).equals(target)) out.writeUInt32LE(declared, at + 24);
  }
  return out;
}

/** PDF string literal escaping for `(…) Tj`. */
const pdfString = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

export interface RawPdfOptions {
  /** Deflate page content (pdfkit's default); false writes the streams as they are. */
  compress?: boolean;
}

/**
 * A PDF whose pages hold these text lines (Helvetica 11 pt, one line per 14 pt from the top), written
 * as raw content-stream operators, which is fast enough for thousands of pages or one huge page.
 * A page given as a function receives a writer for its raw content (appended to the page's stream).
 */
export async function pdfFromRawPages(
  pages: ReadonlyArray<readonly string[] | ((write: (ops: string) => void) => void)>,
  opts: RawPdfOptions = {},
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 72, autoFirstPage: false, compress: opts.compress ?? true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (const page of pages) {
    doc.addPage();
    doc.font('Helvetica').fontSize(11).text('', 72, 72, { lineBreak: false }); // registers the font on the page
    const font = (doc as unknown as { _font: { id: string } })._font.id;
    const write = (ops: string) => void doc.addContent(ops);
    if (typeof page === 'function') {
      page(write);
      continue;
    }
    const ops = page.map((line, j) => `BT /${font} 11 Tf 72 ${720 - j * 14} Td (${pdfString(line)}) Tj ET`);
    write(ops.join('\n'));
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Text-showing operators for one long line of text at the top of a page (font F1 as pdfFromRawPages names it). */
export const showText = (text: string, y = 720) => `BT /F1 11 Tf 72 ${y} Td (${pdfString(text)}) Tj ET\n`;

/**
 * A one-page PDF (written by hand: five objects and an xref table) whose page content is `content`,
 * deflated when `deflate` is set: then a few MB of file can expand to hundreds of MB of operators.
 * `height` makes the page that tall (pdf.js leaves out text drawn off the page).
 */
export function onePagePdf(content: Buffer, { deflate = false, height = 792 } = {}): Buffer {
  const stream = deflate ? zlib.deflateSync(content, { level: 9 }) : content;
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    size += buf.length;
  };
  const object = (n: number, body: string) => {
    offsets[n] = size;
    add(`${n} 0 obj\n${body}\nendobj\n`);
  };
  add('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 ${height}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`);
  object(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  offsets[5] = size;
  add(`5 0 obj\n<< /Length ${stream.length}${deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n`);
  add(stream);
  add('\nendstream\nendobj\n');
  const xref = size;
  add(`xref\n0 6\n0000000000 65535 f \n${offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  add(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
