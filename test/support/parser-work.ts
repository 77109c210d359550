/**
 * A parser's work, counted rather than timed, so that a test's verdict is the same on every machine
 * (docs/CONTRIBUTING.md): how many times the functions and blocks of src/ingest ran during a parse,
 * read from V8's block coverage. The count is taken in a child process started without V8's
 * optimising compilers (--max-opt=0), with the counting on before the parser is loaded: optimised
 * code may skip a block's counter, so a count taken in the test's own process would depend on what
 * had been optimised already. The same input then gives the same count on every machine and run.
 *
 * What it does not see: work inside built-ins (a regular expression's backtracking, an indexOf over
 * the whole text). The hostile-file corpus (test/ingest.pathological.test.ts) covers those inputs,
 * and the work budgets of src/ingest/limits.ts decide their outcome.
 */
import { execFile } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

export type VttStyle = 'zoom' | 'teams';

export interface ParseWork {
  /** Words asked of longInterview, and what that made. */
  words: number;
  bytes: number;
  turns: number;
  utterances: number;
  /** Executions of src/ingest's functions and blocks during the parse. */
  work: number;
}

interface Request {
  style: VttStyle;
  words: readonly number[];
}

const CHILD = 'MINDSIM_PARSER_WORK';

/** parseVtt's work on longInterview(n) written in `style`, for each n of `words`, counted in a child process. */
export async function vttParseWork(style: VttStyle, words: readonly number[]): Promise<ParseWork[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, [CHILD]: JSON.stringify({ style, words } satisfies Request) };
  delete env.NODE_TEST_CONTEXT; // a plain script, not a test file of this run
  delete env.NODE_OPTIONS;
  const { stdout } = await promisify(execFile)(process.execPath, ['--max-opt=0', fileURLToPath(import.meta.url)], { env });
  return JSON.parse(stdout) as ParseWork[];
}

async function child(req: Request): Promise<ParseWork[]> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  // Loaded only now, so every function of the parser is compiled with its counters.
  const { parseVtt } = await import('../../src/ingest/vtt.ts');
  const { longInterview, teamsVtt, zoomVtt } = await import('../../testkit/fixtures.ts');
  const write = req.style === 'zoom' ? zoomVtt : teamsVtt;
  const out: ParseWork[] = [];
  for (const words of req.words) {
    const turns = longInterview(words);
    const text = write(turns);
    await session.post('Profiler.takePreciseCoverage'); // taking the counts also sets them back to zero
    const utterances = parseVtt(text).length;
    const { result } = await session.post('Profiler.takePreciseCoverage');
    let work = 0;
    for (const script of result) {
      if (!script.url.includes('/src/ingest/')) continue;
      for (const fn of script.functions) for (const range of fn.ranges) work += range.count;
    }
    out.push({ words, bytes: Buffer.byteLength(text), turns: turns.length, utterances, work });
  }
  session.disconnect();
  return out;
}

if (process.env[CHILD] && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await child(JSON.parse(process.env[CHILD]) as Request)));
}
