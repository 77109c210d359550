/**
 * What a mind's export costs (`node --conditions=mindsim-source bench/export.ts`): a mind with
 * BENCH_MEMORIES memories (default 300,000, written straight to its snapshot's rows), a
 * BENCH_UPLOAD_MB upload (default 45 MB, through the signed URL) and BENCH_SIMULATIONS conversations,
 * exported through the API while the process's RSS is sampled: the archive's size, how long it took,
 * and how far the resident memory rose above where it was before the request (the archive is
 * streamed: the rise should stay far below the archive's size; the client writes it to a file).
 * Prints one JSON line.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { unzipSync } from 'fflate';
import { blobOf, waitFor } from '../testkit/sdk.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startService } from '../testkit/service.ts';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 300_000);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 45);
const SIMULATIONS = Number(process.env.BENCH_SIMULATIONS ?? 20);
const MB = 1024 * 1024;

async function main(): Promise<void> {
  const srv = await startService({ LOG_LEVEL: 'warn' });
  try {
    const sdk = srv.sdk();
    const { mind } = await sdk.minds.create('Export Bench');
    const started = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
    await waitFor(sdk, mind.id, started.mindAssessmentId, 120_000);
    for (let i = 0; i < SIMULATIONS; i++) await sdk.simulate({ mindId: mind.id, scenario: { message: `Question ${i}: how do you start your day?` } });
    const words = 'I always start with a long run before breakfast along the river and never check email first';
    await srv.ctx.store.repos.snapshots.replaceMemories(
      started.mindAssessmentId,
      mind.id,
      Array.from({ length: MEMORIES }, (_, i) => ({ seq: i, speaker: 'Sam Okafor', text: `${words} (${i}).`, start: i, end: i + 1, page: null, question: 'How do you start your day?' })),
    );
    // Random bytes: a file deflate cannot shrink, as a recording's transcript in PDF or DOCX is already compressed.
    await sdk.uploads.upload(mind.id, blobOf(crypto.randomBytes(UPLOAD_MB * MB)), { fileName: 'long-recording.pdf' });

    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = performance.now();
    const res = await fetch(`${srv.api}/minds/${mind.id}/export`, { headers: { authorization: `Bearer ${srv.apiKey}` } });
    const file = path.join(srv.dataDir, 'export.zip');
    if (!res.body) throw new Error(`no body: ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), fs.createWriteStream(file));
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const bytes = fs.statSync(file).size;
    // After the measure: what the archive unpacks to.
    const unpacked = Object.values(unzipSync(fs.readFileSync(file))).reduce((n, f) => n + f.length, 0);
    console.log(
      JSON.stringify({
        memories: MEMORIES,
        uploadMb: UPLOAD_MB,
        simulations: SIMULATIONS,
        status: res.status,
        archiveMb: +(bytes / MB).toFixed(1),
        unpackedMb: +(unpacked / MB).toFixed(1),
        seconds: +(ms / 1000).toFixed(2),
        mbPerSecond: +(bytes / MB / (ms / 1000)).toFixed(1),
        rssBeforeMb: +(before / MB).toFixed(0),
        rssRiseMb: +((peak - before) / MB).toFixed(0),
      }),
    );
  } finally {
    await srv.close();
  }
}

await main();
