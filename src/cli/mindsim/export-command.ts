import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { clientFrom } from './config.ts';
import { UsageError, printJson, type OutputOptions } from './terminal.ts';

interface ExportOptions {
  out?: string;
  force?: boolean;
}

/** Where the archive goes: --out, else the service's file name in the current folder; checked before anything is asked. */
function target(out: string | undefined, force: boolean | undefined): string | null {
  if (out === '-') {
    if (process.stdout.isTTY) throw new UsageError('The export is a zip archive: redirect stdout to a file, or give --out <file>.');
    return null;
  }
  if (out === undefined) return '';
  if (fs.existsSync(out)) {
    if (fs.statSync(out).isDirectory()) return path.join(out, '');
    if (!force) throw new UsageError(`${out} exists: give --force to replace it, or another --out.`);
  }
  const dir = path.dirname(path.resolve(out));
  if (!fs.existsSync(dir)) throw new UsageError(`Cannot write ${out}: no folder ${dir}`);
  return out;
}

/**
 * `mindsim export <mindId>`: everything stored about the mind's person (GET /minds/{id}/export), a
 * zip archive whose README.json describes every file. Streamed to `<file>.part`, renamed once
 * whole: a failed download leaves no archive that looks complete.
 */
export function exportCommand(program: Command, global: () => OutputOptions): void {
  program
    .command('export')
    .description("download everything stored about a mind's person as one zip archive (README.json describes each file)")
    .argument('<mindId>', 'the mind')
    .option('--out <file>', "where to write it (a file, a folder, or - for stdout); default: the service's file name in this folder")
    .option('--force', 'replace the file if it exists')
    .action(async (mindId: string, opts: ExportOptions) => {
      let file = target(opts.out, opts.force);
      const download = await clientFrom().minds.export(mindId);
      const body = Readable.fromWeb(download.body as WebReadableStream<Uint8Array>);
      if (file === null) return pipeline(body, process.stdout);
      const suggested = download.fileName && /^[\w.-]+$/.test(download.fileName) ? download.fileName : `mindsim-export-${mindId}.zip`;
      if (file === '' || file.endsWith(path.sep)) file = path.join(file, suggested);
      if (fs.existsSync(file) && !opts.force) {
        await download.body.cancel();
        throw new UsageError(`${file} exists: give --force to replace it, or another --out.`);
      }
      const part = `${file}.part`;
      try {
        await pipeline(body, fs.createWriteStream(part, { mode: 0o600 }));
        fs.renameSync(part, file);
      } catch (err) {
        fs.rmSync(part, { force: true });
        throw err;
      }
      const bytes = fs.statSync(file).size;
      if (global().json) return printJson({ mindId, file, bytes });
      process.stderr.write(`Wrote the export of ${mindId} (${bytes} bytes, zip) to ${file}\n`);
    });
}
