/**
 * Snapshot processing time for a two-hour interview (~6,500 words) in each format, creation →
 * completed, measured on a service that has processed nothing yet: the first run of each format
 * is cold (the analysis thread loads the sentence encoder, for the passages and the self-check, and
 * pdf.js when it starts, which the first file may still wait for; the first DOCX is mammoth's first use).
 * Used by bench/run.ts; `node --import tsx bench/snapshots.ts` runs it alone and prints the section.
 */
import { client, type Client } from '../testkit/http.ts';
import { startServer } from '../testkit/process.ts';
import { longInterview, makeDocx, makePdf, teamsVtt } from '../testkit/fixtures.ts';
import { processingMs } from './measure.ts';

const RUNS = 3;
const TARGET_MS = 1000;

export interface SnapshotProcessing {
  words: number;
  /** Milliseconds per run, in order (the first cold), per format. */
  runs: Record<string, number[]>;
  bytes: Record<string, number>;
  /** A mind with completed snapshots and the VTT, for the rest of the benchmark. */
  mindId: string;
  vtt: string;
}

async function timeSnapshot(api: Client, mindId: string, bytes: Buffer | string, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  const r = await api.post(`/minds/${mindId}/snapshots`, form);
  return processingMs(api, mindId, r.body.mindAssessmentId);
}

/** Must be the first thing the service processes, for the first runs to be cold. */
export async function snapshotProcessing(api: Client): Promise<SnapshotProcessing> {
  const mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id as string;
  const interview = longInterview(6500);
  const words = interview.reduce((n, t) => n + t.text.split(/\s+/).length, 0);
  const vtt = teamsVtt(interview);
  const docx = await makeDocx(interview);
  const pdf = await makePdf(interview, { qa: false });
  const runs: Record<string, number[]> = { VTT: [], DOCX: [], PDF: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.VTT?.push(await timeSnapshot(api, mindId, vtt, 'i.vtt'));
    runs.DOCX?.push(await timeSnapshot(api, mindId, docx, 'i.docx'));
    runs.PDF?.push(await timeSnapshot(api, mindId, pdf, 'i.pdf'));
  }
  return { words, runs, bytes: { VTT: Buffer.byteLength(vtt), DOCX: docx.length, PDF: pdf.length }, mindId, vtt };
}

export function renderSnapshotProcessing(r: SnapshotProcessing): string[] {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const rows = Object.entries(r.runs);
  const slowest = (xs: number[]) => Math.max(...xs);
  const verdict = rows.map(([f, xs]) => `${f} ${slowest(xs) <= TARGET_MS ? 'met' : 'not met'} (slowest run ${slowest(xs)} ms)`).join(', ');
  return [
    `## Snapshot processing: a two-hour interview (${r.words} words), creation → completed`,
    '',
    `Measured from the snapshot's own \`createdAt\` to \`completedAt\` (${RUNS} runs each, the worker in the API process,`,
    'the formats alternating). The service has processed nothing before: the first run of each format is cold: the',
    "analysis thread loads the sentence encoder (for the passages and the self-check) and pdf.js when it starts, which the",
    "first file may still wait for; the first DOCX is mammoth's first use.",
    '',
    '| format | file size | median ms | all runs ms (first cold) |',
    '|---|---:|---:|---|',
    ...rows.map(([f, xs]) => `| ${f} | ${r.bytes[f] ?? 0} B | ${median(xs)} | ${xs.join(', ')} |`),
    '',
    `Target: completed within 1 s, every run: ${verdict}.`,
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const srv = await startServer({ LOG_LEVEL: 'warn', WORKER_POLL_MS: '250' });
  try {
    process.stdout.write(`${renderSnapshotProcessing(await snapshotProcessing(client(srv.api, srv.apiKey))).join('\n')}\n`);
  } finally {
    await srv.stop();
  }
}
