import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { MindsimClient, SnapshotStatus, StartedAssessment } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { EXIT, StatusLine, UsageError, printJson, type OutputOptions } from './terminal.ts';
import { uploadProgress } from './upload-progress.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.vtt': 'text/vtt',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

interface UploadOpts {
  wait?: boolean;
  twin?: string;
  speaker?: string;
  mindsetDate?: string;
  timeout: number;
}

function statFile(file: string): number {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) throw new UsageError(`${file} is not a file.`);
    return st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function uploadOne(client: MindsimClient, mindId: string, file: string, opts: UploadOpts): Promise<StartedAssessment> {
  const size = statFile(file);
  const fileName = path.basename(file);
  const bar = uploadProgress(fileName, size);
  try {
    const up = await client.uploads.upload(mindId, fs.createReadStream(file), {
      fileName,
      size,
      contentType: CONTENT_TYPES[path.extname(file).toLowerCase()],
      onProgress: (sent) => bar.update(sent),
    });
    bar.stop();
    return await client.snapshots.create(mindId, { artifactId: up.artifactId, digitalTwinId: opts.twin, speaker: opts.speaker, mindsetDate: opts.mindsetDate });
  } finally {
    bar.stop();
  }
}

async function waitOne(client: MindsimClient, mindId: string, fileName: string, snapshotId: string, timeoutMs: number) {
  const line = new StatusLine();
  const t0 = Date.now();
  let last = 'pending';
  const draw = () => line.update(`${fileName}: ${last} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  const timer = line.enabled ? setInterval(draw, 200) : undefined;
  try {
    const done = await client.snapshots.wait(mindId, snapshotId, {
      timeoutMs,
      onStatus: (s) => {
        last = s.status;
        draw();
      },
    });
    return { done, seconds: (Date.now() - t0) / 1000 };
  } finally {
    clearInterval(timer);
    line.clear();
  }
}

/**
 * `mindsim upload <mindId> <file...> [--wait]`: each file through a signed URL (byte progress bar
 * on a TTY), then a snapshot from the artifact, then optionally a live status until it ends.
 */
export function uploadCommand(program: Command, global: () => OutputOptions): void {
  program
    .command('upload <mindId> <files...>')
    .description('upload transcripts (VTT, DOCX, PDF) through signed URLs and start their snapshots')
    .option('--wait', 'wait until every snapshot is completed or failed')
    .option('--twin <digitalTwinId>', 'the digital twin the snapshots belong to')
    .option('--speaker <label>', "the person's speaker label in the transcripts")
    .option('--mindset-date <YYYY-MM-DD>', 'when the conversations happened (default: today)', (v: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new UsageError(`--mindset-date takes a date as YYYY-MM-DD, not "${v}".`);
      return v;
    })
    .option('--timeout <seconds>', 'how long --wait waits', (v) => Number.parseFloat(v), 600)
    .action(async (mindId: string, files: string[], opts: UploadOpts) => {
      for (const f of files) statFile(f);
      const client = clientFrom();
      const started: StartedAssessment[] = [];
      for (const file of files) {
        const s = await uploadOne(client, mindId, file, opts);
        started.push(s);
        if (!global().json) console.log(`${path.basename(file)}: snapshot ${s.mindAssessmentId} started`);
      }
      if (!opts.wait) return emit(global(), started);
      const finals: SnapshotStatus[] = [];
      for (const [i, s] of started.entries()) {
        const fileName = path.basename(files[i] ?? '');
        const { done, seconds } = await waitOne(client, mindId, fileName, s.mindAssessmentId, opts.timeout * 1000);
        finals.push(done);
        if (!global().json) console.log(`${fileName}: snapshot ${done.id} ${done.status} after ${seconds.toFixed(1)}s`);
      }
      emit(global(), finals);
      const failed = finals.filter((f) => f.status === 'failed');
      for (const f of failed) process.stderr.write(`mindsim: snapshot ${f.id} failed: ${f.error?.message ?? 'unknown reason'} (${f.error?.code ?? 'failed'})\n`);
      if (failed.length) process.exitCode = EXIT.api;
      else if (!global().json) console.log(`Ready: mindsim simulate ${mindId} "your scenario"`);
    });
}

/** One file: the API's own object; several: `{snapshots: [...]}` in the order of the files. */
function emit(out: OutputOptions, items: Array<StartedAssessment | SnapshotStatus>): void {
  if (!out.json) return;
  printJson(items.length === 1 ? items[0] : { snapshots: items });
}
