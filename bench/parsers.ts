/**
 * Parsing speed, in this process: a two-hour interview (~6,500 words) in each format through
 * parseTranscript (the fastest of 5 runs after a warm-up: pdf.js and mammoth load on first use), and
 * a 20 MB Zoom VTT (2.5 million words) through parseVtt once. Targets: the interview under 200 ms in
 * every format; 20 MB in a few seconds (under 10 s). Numbers, not pass/fail: the parser tests no
 * longer time anything (a test's verdict never depends on the machine's speed, docs/CONTRIBUTING.md);
 * they count the parser's work instead (test/support/parser-work.ts).
 * Used by bench/run.ts; `node --conditions=mindsim-source bench/parsers.ts` runs it alone and writes
 * its section of BENCHMARKS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { writeSection } from '../eval/panels/report.ts';
import { parseTranscript, parseVtt } from '../src/ingest/index.ts';
import { longInterview, makeDocx, makePdf, teamsVtt, zoomVtt } from '../testkit/fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECTION = '## Parsing a transcript';
const RUNS = 5;
const INTERVIEW_WORDS = 6500;
const INTERVIEW_TARGET_MS = 200;
const BIG_WORDS = 2_500_000;
const BIG_TARGET_MS = 10_000;

export interface ParserBench {
  /** Per format: the file's size and the fastest of RUNS parses, in ms. */
  interview: Array<{ format: string; bytes: number; utterances: number; ms: number }>;
  big: { bytes: number; utterances: number; ms: number };
}

async function fastest(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up: pdf.js and mammoth load on first use
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export async function parserBench(): Promise<ParserBench> {
  const turns = longInterview(INTERVIEW_WORDS);
  const files: Array<[string, Buffer]> = [
    ['VTT (Teams)', Buffer.from(teamsVtt(turns))],
    ['DOCX', await makeDocx(turns)],
    ['PDF', await makePdf(turns)],
  ];
  const interview = [];
  for (const [format, bytes] of files) {
    const utterances = (await parseTranscript(bytes)).utterances.length;
    interview.push({ format, bytes: bytes.length, utterances, ms: await fastest(() => parseTranscript(bytes)) });
  }
  const vtt = zoomVtt(longInterview(BIG_WORDS));
  const t0 = performance.now();
  const utterances = parseVtt(vtt).length;
  const big = { bytes: Buffer.byteLength(vtt), utterances, ms: performance.now() - t0 };
  return { interview, big };
}

export function renderParsers(b: ParserBench): string[] {
  const met = (ms: number, target: number) => (ms < target ? 'met' : 'not met');
  return [
    SECTION,
    '',
    `The parsers alone, in the benchmark's process (no service, no analysis thread): a two-hour interview (${INTERVIEW_WORDS.toLocaleString('en-US')} words)`,
    `in each format through \`parseTranscript\`, the fastest of ${RUNS} runs after a warm-up (pdf.js and mammoth load on first use), and a 20 MB`,
    `Zoom VTT (${BIG_WORDS.toLocaleString('en-US')} words) through \`parseVtt\` once. The tests time none of this: they count the parser's work`,
    '(test/support/parser-work.ts). `node --conditions=mindsim-source bench/parsers.ts` runs this section alone.',
    '',
    '| file | size | utterances | ms | target |',
    '|---|---:|---:|---:|---|',
    ...b.interview.map((r) => `| ${r.format}, ${INTERVIEW_WORDS.toLocaleString('en-US')} words | ${r.bytes} B | ${r.utterances} | ${r.ms.toFixed(1)} | < ${INTERVIEW_TARGET_MS} ms: ${met(r.ms, INTERVIEW_TARGET_MS)} |`),
    `| Zoom VTT, ${BIG_WORDS.toLocaleString('en-US')} words | ${(b.big.bytes / 1048576).toFixed(1)} MiB | ${b.big.utterances} | ${b.big.ms.toFixed(0)} | < ${BIG_TARGET_MS / 1000} s: ${met(b.big.ms, BIG_TARGET_MS)} |`,
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = renderParsers(await parserBench());
  lines.splice(2, 0, `Run: ${new Date().toISOString()} on ${os.cpus().length} × ${cpu}, Node ${process.version}.`, '');
  writeSection(path.join(ROOT, 'BENCHMARKS.md'), lines.join('\n'), SECTION);
  process.stdout.write(`${lines.join('\n')}\n`);
}
