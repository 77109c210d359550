import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { WaitTimeoutError, type MindsimClient, type Panel, type PanelAnswer } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { readQuestionsFile } from './panel-file.ts';
import { panelProgress } from './panel-progress.ts';
import { createdLine, panelRow, renderPanel, renderResults } from './panel-view.ts';
import { EXIT, UsageError, dim, printJson, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;
type Format = 'csv' | 'json';

/** Exit code after Ctrl-C while waiting (128 + SIGINT), as shells report it. */
const EXIT_INTERRUPTED = 130;
const PAGE = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--tags a,b --tags c` → `[a, b, c]`. */
const commaList = (value: string, previous: string[]) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];
const count = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`Not a count: ${v}`);
  return n;
};
const seconds = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`Not a number of seconds: ${v}`);
  return n;
};
const say = (line: string) => process.stderr.write(`${line}\n`);
const formatOption = () => new Option('--format <format>', 'csv or json (default csv; json with --json)').choices(['csv', 'json']);

/** The format the answers are written in: --format, else JSON with --json, else CSV; CSV on stdout cannot be --json's one JSON object. */
function answersFormat(opts: { format?: Format; out?: string }, json: boolean): Format {
  const format = opts.format ?? (json ? 'json' : 'csv');
  if (json && format === 'csv' && !opts.out) throw new UsageError('--json prints JSON on stdout: drop --format csv, or write the CSV to a file with --out');
  return format;
}

/** Fails before anything is asked of the service when the answers could not be written. */
function checkOut(file: string | undefined): void {
  if (!file) return;
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError(`Cannot write ${file}: it is a folder`);
  const dir = path.dirname(path.resolve(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new UsageError(`Cannot write ${file}: ${fs.existsSync(dir) ? 'the folder is not writable' : `no folder ${dir}`}`);
  }
}

function write(text: string, file: string | undefined, what: string): void {
  if (!file) return void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  fs.writeFileSync(file, text);
  say(`Wrote ${what} to ${file}`);
}

/** Every answer (filtered to a question), through as many pages as it takes. */
async function allAnswers(client: MindsimClient, panelId: string, questionId?: string): Promise<{ answers: PanelAnswer[]; count: number }> {
  const answers: PanelAnswer[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await client.panels.answers(panelId, { limit: PAGE, offset, ...(questionId ? { questionId } : {}) });
    answers.push(...page.answers);
    if (page.answers.length < PAGE || answers.length >= page.count) return { answers, count: answers.length };
  }
}

const followHint = (id: string) => `Follow it with \`mindsim panel get ${id}\`, fetch its answers with \`mindsim panel answers ${id}\`, stop it with \`mindsim panel cancel ${id}\`.`;

/**
 * Waits for the panel to end with its progress on stderr; Ctrl-C stops waiting (not the panel,
 * which goes on on the server) and answers null.
 */
async function follow(client: MindsimClient, created: Panel, timeoutMs: number): Promise<Panel | null> {
  const progress = panelProgress();
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  try {
    progress.update(created);
    return await client.panels.wait(created.id, { timeoutMs, maxIntervalMs: 2_000, signal: stop.signal, onProgress: (p) => progress.update(p) });
  } catch (err) {
    progress.stop();
    if (stop.signal.aborted) {
      say(`\nStopped waiting: panel ${created.id} keeps running on the server. ${followHint(created.id)}`);
      process.exitCode = EXIT_INTERRUPTED;
      return null;
    }
    if (err instanceof WaitTimeoutError) throw new Error(`${err.message} ${followHint(created.id)}`);
    throw err;
  } finally {
    progress.stop();
    process.removeListener('SIGINT', onSigint);
  }
}

/** After a --wait: a panel that ended failed or cancelled is an error (exit 1), its answers so far written all the same. */
function reportEnd(p: Panel): void {
  if (p.status === 'failed') {
    say(`mindsim: panel ${p.id} failed: ${p.error?.message ?? 'unknown reason'} (${p.error?.code ?? 'failed'}); ${p.done} of ${p.total} answers stored`);
    process.exitCode = EXIT.api;
  } else if (p.status === 'cancelled') {
    say(`mindsim: panel ${p.id} was cancelled; ${p.done} of ${p.total} answers stored`);
    process.exitCode = EXIT.api;
  }
}

interface RunOpts {
  tags: string[];
  minds: string[];
  name?: string;
  model?: string;
  wait?: boolean;
  format?: Format;
  out?: string;
  timeout: number;
}

async function runPanel(file: string, opts: RunOpts, json: boolean): Promise<void> {
  const questions = readQuestionsFile(file);
  if (!opts.tags.length && !opts.minds.length) throw new UsageError('Choose the minds: --tags (every mind carrying one of them) and/or --minds (ids).');
  const badId = opts.minds.find((m) => !UUID.test(m));
  if (badId) throw new UsageError(`--minds takes mind ids (UUIDs), not "${badId}".`);
  const format = opts.wait ? answersFormat(opts, json) : undefined;
  checkOut(opts.wait ? opts.out : undefined);
  const client = clientFrom();
  const name = opts.name ?? questions.name;
  const { panel } = await client.panels.create({
    questions: questions.questions,
    ...(name ? { name } : {}),
    ...(opts.tags.length ? { tags: opts.tags } : {}),
    ...(opts.minds.length ? { mindIds: opts.minds } : {}),
    ...(opts.model ? { selectedSimulationModel: opts.model } : {}),
  });
  say(createdLine(panel));
  for (const s of panel.skippedMinds) say(`  skipped ${s.name} (${s.mindId}): no completed snapshot yet`);
  if (!opts.wait) {
    if (json) printJson({ panel });
    else console.log(panel.id);
    say(dim(followHint(panel.id), process.stderr));
    return;
  }
  const final = await follow(client, panel, opts.timeout * 1000);
  if (!final) return;
  if (format === 'json') {
    const { answers } = await allAnswers(client, final.id);
    write(`${JSON.stringify({ panel: final, answers }, null, 2)}\n`, opts.out, `${answers.length} answers (JSON)`);
  } else {
    write(await client.panels.answersCsv(final.id), opts.out, `${final.done} answers (CSV)`);
  }
  const summary = renderResults(final, process.stderr);
  if (summary) say(`\n${summary}`);
  say(`\nPanel ${final.id} ${final.status}: ${final.done}/${final.total} answers from ${final.mindsDone}/${final.minds} minds`);
  reportEnd(final);
}

/** `mindsim panel run|get|list|answers|cancel|delete`: typed questions to many minds. */
export function panelCommands(program: Command, global: Global): void {
  const panel = program.command('panel').alias('panels').description('ask many minds typed questions (a panel): run, follow, read the answers, cancel, delete');

  panel
    .command('run <questionsFile>')
    .description('start a panel from a YAML or JSON file of questions; with --wait, follow it and write the answers')
    .option('--tags <names>', 'every mind carrying one of these tags (comma-separated, repeatable)', commaList, [])
    .option('--minds <ids>', 'these minds (comma-separated ids, repeatable)', commaList, [])
    .option('--name <name>', 'the panel\'s name (default: the file\'s `name`, else "N questions to M minds")')
    .option('--model <model>', 'mind-reasoner-standard (offline) or mind-reasoner-pro (an LLM, when the service has one); default: the service\'s')
    .option('--wait', 'follow the panel until it ends (progress on stderr), then write its answers and a summary per question')
    .addOption(formatOption())
    .option('--out <file>', 'with --wait: write the answers to this file instead of stdout')
    .option('--timeout <seconds>', 'how long --wait waits', seconds, 3600)
    .addHelpText(
      'after',
      '\nThe file: a list of questions, or {name, questions: [...]}; each {id?, text, type, options?, scale?},\n' +
        'type one of open, single, multiple (with options), likert (scale {min, max, labels?}, default 1-5), number.\n' +
        'Without --wait the panel id is printed (with --json, the created panel). Ctrl-C while waiting stops waiting, not the panel.',
    )
    .action((file: string, opts: RunOpts) => runPanel(file, opts, Boolean(global().json)));

  panel
    .command('get <panelId>')
    .alias('show')
    .description('a panel: status, progress, and the results per question (and per tag)')
    .action(async (id: string) => {
      const { panel: p } = await clientFrom().panels.get(id);
      if (global().json) return printJson({ panel: p });
      console.log(renderPanel(p));
    });

  panel
    .command('list')
    .alias('ls')
    .description('the panels, newest first: id, created, status, answers done/expected, name')
    .option('--limit <n>', 'at most this many', count, 50)
    .option('--offset <n>', 'skip this many', count, 0)
    .action(async (opts: { limit: number; offset: number }) => {
      const list = await clientFrom().panels.list({ limit: opts.limit, offset: opts.offset });
      if (global().json) return printJson(list);
      if (!list.panels.length) return console.log(dim('No panels yet: mindsim panel run questions.yaml --tags <tag>'));
      for (const p of list.panels) console.log(panelRow(p));
      if (list.count > opts.offset + list.panels.length) console.log(dim(`${list.count} in all: --offset ${opts.offset + list.panels.length} for more`));
    });

  panel
    .command('answers <panelId>')
    .description('every answer of a panel (one per mind and question) as CSV or JSON ({answers, count})')
    .addOption(formatOption())
    .option('--question <questionId>', "only this question's answers")
    .option('--out <file>', 'write them to this file instead of stdout')
    .action(async (id: string, opts: { format?: Format; question?: string; out?: string }) => {
      const format = answersFormat(opts, Boolean(global().json));
      checkOut(opts.out);
      const client = clientFrom();
      if (format === 'csv') return write(await client.panels.answersCsv(id, opts.question ? { questionId: opts.question } : {}), opts.out, 'the answers (CSV)');
      const all = await allAnswers(client, id, opts.question);
      write(`${JSON.stringify(all, null, 2)}\n`, opts.out, `${all.count} answers (JSON)`);
    });

  panel
    .command('cancel <panelId>')
    .description('stop a queued or running panel: no more minds start; the answers stored so far are kept')
    .action(async (id: string) => {
      const { panel: p } = await clientFrom().panels.cancel(id);
      if (global().json) return printJson({ panel: p });
      console.log(`Cancelled panel ${p.id}: ${p.done}/${p.total} answers kept`);
    });

  panel
    .command('delete <panelId>')
    .alias('rm')
    .description('delete a panel with its answers (a running one stops)')
    .action(async (id: string) => {
      const deleted = await clientFrom().panels.delete(id);
      if (global().json) return printJson(deleted);
      console.log(`Deleted panel ${deleted.panelId}`);
    });
}
