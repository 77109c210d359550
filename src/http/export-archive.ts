import { PassThrough, Readable, pipeline } from 'node:stream';
import yazl from 'yazl';
import type { ExportEntry, MindExport } from '../domain/export.ts';
import { csvWriter } from './csv.ts';

/** The media type and disposition of an export (the file name is ASCII letters, digits, dashes and a dot: nothing to quote). */
export const EXPORT_CONTENT_TYPE = 'application/zip';
export const exportDisposition = (exp: MindExport) => `attachment; filename="${exp.fileName}"`;

const ALREADY_COMPRESSED = /\.(docx|pdf|zip)$/i;
const bytes = (text: string) => Buffer.from(text, 'utf8');

/**
 * A mind's export as one zip archive, streamed: each file is produced only when the archive
 * reaches it (a page of rows at a time, an uploaded file straight from the blob store), so a big
 * mind never sits in memory, and README.json comes last, with what each file turned out to hold.
 * Zip (yazl, MIT) rather than tar.gz: an entry's size need not be known before it is written, and
 * the person who asked for their data opens it with what their system already has.
 *
 * An error once the archive has started (the database gone, a blob deleted meanwhile) destroys the
 * stream: the client sees a broken download, never a truncated archive that looks whole.
 */
export function exportArchive(exp: MindExport): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  const counts = new Map<string, number>();
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.on('error', fail);
  zip.outputStream.on('error', fail);
  // When the client goes, pipe() unpipes: nothing more is read from the database or the blobs.
  zip.outputStream.pipe(out);

  const mtime = new Date(exp.exportedAt);
  for (const entry of exp.entries) {
    const compress = !(entry.kind === 'file' && ALREADY_COMPRESSED.test(entry.path));
    zip.addReadStreamLazy(entry.path, { mtime, compress }, (cb) => {
      if (failed) return;
      sourceOf(entry, counts).then(
        (stream) => {
          stream.on('error', fail);
          cb(null, stream);
        },
        fail,
      );
    });
  }
  zip.addReadStreamLazy('README.json', { mtime }, (cb) => {
    try {
      cb(null, Readable.from([bytes(`${JSON.stringify(exp.readme(counts), null, 2)}\n`)]));
    } catch (err) {
      fail(err);
    }
  });
  zip.end();
  return out;
}

/** The bytes of one file of the archive, counting what it holds as it goes. */
async function sourceOf(entry: ExportEntry, counts: Map<string, number>): Promise<Readable> {
  const path = entry.path;
  switch (entry.kind) {
    case 'document':
      return Readable.from(
        (async function* () {
          const value = (await entry.read()) ?? null;
          counts.set(path, entry.countOf(value));
          yield bytes(`${JSON.stringify(value, null, 2)}\n`);
        })(),
      );
    case 'list':
      return Readable.from(
        (async function* () {
          let n = 0;
          yield bytes('[');
          for await (const item of entry.items()) {
            yield bytes(`${n === 0 ? '\n' : ',\n'}${JSON.stringify(item, null, 2)}`);
            counts.set(path, ++n);
          }
          counts.set(path, n);
          yield bytes(n === 0 ? ']\n' : '\n]\n');
        })(),
      );
    case 'table': {
      const rows = Readable.from(
        (async function* () {
          let n = 0;
          counts.set(path, 0);
          for await (const row of entry.rows()) {
            yield row;
            counts.set(path, ++n);
          }
        })(),
      );
      // pipeline passes an error of the rows on to the CSV stream, which the archive listens to.
      return pipeline(rows, csvWriter(entry.columns), () => undefined);
    }
    case 'file': {
      const stream = await entry.open();
      let n = 0;
      stream.on('data', (chunk: Buffer) => counts.set(path, (n += chunk.length)));
      counts.set(path, 0);
      return stream;
    }
  }
}
