/**
 * `npm run eval [dir] [--limit N] [--per N] [--formats vtt,docx,pdf] [--out EVAL.md] [--seed N]
 *   [--model NAME] [--scenarios DIR] [--no-heldout] [--no-scenarios] [--no-corpus]`
 *
 * Held-out answer prediction and the scenario suite through the public API (see eval/report.ts
 * for the method). Starts the service in this process (testkit/service.ts) on a free port with a
 * fresh data folder, like the tests do; the service inherits this process's environment (LLM_*
 * for mind-reasoner-pro). Interviews are read from ../shared/data/interviews/changelog next to the repository
 * unless a folder is given; reports name folders relative to the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RENDER, runEngine } from './engine.ts';
import { planHeldOut, scoreHeldOut, type HeldOutPlan } from './heldout.ts';
import { interviewsDir, readInterviews, REPO_ROOT as ROOT, shownPath as shown } from './interviews.ts';
import { renderReport, type ModeResult } from './report.ts';
import { sectionOf, withSection } from './panels/report.ts';
import { CORPUS_SECTION, evaluateCorpus } from './corpus.ts';
import { isDecline, loadScenarios, type Suite } from './scenarios.ts';

const DEFAULT_SCENARIOS = path.resolve(ROOT, 'eval/scenarios');
/** The label of the run (the report can show several runs of the service side by side). */
const DEFAULT_MODE = 'default';

const USAGE = `usage: npm run eval -- [dir] [--limit N] [--per N] [--formats vtt,docx,pdf] [--out FILE] [--seed N]
  [--model mind-reasoner-standard|mind-reasoner-pro] [--scenarios DIR] [--no-heldout] [--no-scenarios]
  [--no-corpus]`;

function options(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: 'string' },
      per: { type: 'string', default: '8' },
      formats: { type: 'string', default: 'vtt,docx,pdf' },
      out: { type: 'string', default: path.join(ROOT, 'EVAL.md') },
      seed: { type: 'string', default: '7' },
      model: { type: 'string', default: 'mind-reasoner-standard' },
      scenarios: { type: 'string', default: DEFAULT_SCENARIOS },
      'no-scenarios': { type: 'boolean', default: false },
      'no-heldout': { type: 'boolean', default: false },
      'no-corpus': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const formats = values.formats.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = formats.filter((f) => !(f in RENDER));
  if (unknown.length) throw new Error(`unknown format ${unknown.join(', ')} (known: ${Object.keys(RENDER).join(', ')})`);
  const number = (name: string, v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 1) throw new Error(`--${name} wants a positive number, not ${v}`);
    return n;
  };
  return {
    help: values.help,
    dir: interviewsDir(positionals[0]),
    limit: values.limit ? number('limit', values.limit) : Infinity,
    per: number('per', values.per),
    formats,
    out: path.resolve(values.out),
    seed: Number(values.seed),
    model: values.model,
    scenarioDir: path.resolve(ROOT, values.scenarios),
    heldOut: !values['no-heldout'],
    scenarios: !values['no-scenarios'],
    corpus: !values['no-corpus'],
    modes: [DEFAULT_MODE],
  };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const opts = options(process.argv.slice(2));
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  if (!opts.heldOut && !opts.scenarios) throw new Error('--no-heldout and --no-scenarios: nothing to run');
  const everything = readInterviews(opts.dir);
  const interviews = everything.slice(0, opts.limit);
  if (interviews.length === 0) throw new Error(`no interviews (*.md) in ${shown(opts.dir)}`);
  const read = new Set(interviews.map((i) => i.file));

  // Scenario files are checked against every transcript in the folder before anything starts.
  let suites: Suite[] = [];
  let skipped: string[] = [];
  if (opts.scenarios) {
    const loaded = loadScenarios(opts.scenarioDir, everything);
    suites = loaded.suites.filter((s) => read.has(s.file));
    skipped = loaded.skipped;
    if (skipped.length) console.error(`scenario files not run (no such transcript in ${shown(opts.dir)}): ${skipped.join(', ')}`);
    const beyond = loaded.suites.length - suites.length;
    if (beyond) console.error(`${beyond} scenario files not run: their transcripts are beyond --limit`);
  }
  const plan: HeldOutPlan = opts.heldOut ? planHeldOut(interviews, opts.per, opts.seed) : { sets: [], baselines: new Map() };

  const results: ModeResult[] = [];
  const models = new Set<string>();
  const order = new Map(interviews.map((i, n) => [i.file, n]));
  for (const [n, mode] of opts.modes.entries()) {
    const started = performance.now();
    if (opts.modes.length > 1 || mode !== DEFAULT_MODE) console.error(`retrieval mode ${mode}:`);
    let run;
    try {
      run = await runEngine({
        env: {},
        model: opts.model,
        formats: opts.formats,
        heldOut: plan.sets,
        suites,
        log: (line) => console.error(line),
        isDecline,
      });
    } catch (err) {
      // The main run must succeed; a further run that fails is reported as failed.
      if (n === 0) throw err;
      const error = (err as Error).message.split('\n').map((l) => l.trim()).filter(Boolean).slice(-1)[0] ?? 'failed';
      console.error(`retrieval mode ${mode} failed: ${(err as Error).message}`);
      results.push({ mode, heldOut: [], scenarios: [], seconds: (performance.now() - started) / 1000, error });
      continue;
    }
    for (const m of run.models) models.add(m);
    const scenarios = run.scenarios.sort(
      (a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.id.localeCompare(b.id, 'en', { numeric: true }) || opts.formats.indexOf(a.format) - opts.formats.indexOf(b.format),
    );
    results.push({ mode, heldOut: scoreHeldOut(plan, run.answers, opts.formats), scenarios, seconds: (performance.now() - started) / 1000 });
  }

  const seconds = (performance.now() - t0) / 1000;
  const report = renderReport(results, {
    dir: shown(opts.dir),
    interviews: interviews.length,
    formats: opts.formats,
    perInterview: opts.per,
    seconds,
    model: opts.model,
    answeredBy: [...models],
    heldOut: opts.heldOut,
    scenarios: opts.scenarios,
    scenarioDir: shown(opts.scenarioDir),
    scenarioFiles: suites.length,
    skippedScenarioFiles: skipped,
  });
  // The panels section (`npm run eval:panels`) is another evaluation's: carried over as it stands.
  const before = fs.existsSync(opts.out) ? fs.readFileSync(opts.out, 'utf8') : '';
  const panels = sectionOf(before);
  // The leave-people-out run on the corpus (eval/corpus.ts): run now, or carried over with --no-corpus.
  const corpus = opts.corpus ? (await evaluateCorpus()).section : sectionOf(before, CORPUS_SECTION);
  let text = corpus ? withSection(report, corpus, CORPUS_SECTION) : report;
  if (panels) text = withSection(text, panels);
  // The hand-written account of issue 29's measurements (which data each number saw, twelve answers before and after): carried over.
  const issue29 = sectionOf(before, ISSUE_29_SECTION);
  if (issue29) text = withSection(text, issue29, ISSUE_29_SECTION);
  // Issue 32's corrections (`npm run eval:corrections`): carried over as it stands.
  const issue32 = sectionOf(before, ISSUE_32_SECTION);
  if (issue32) text = withSection(text, issue32, ISSUE_32_SECTION);
  fs.writeFileSync(opts.out, text);
  console.log(report);
  console.error(`Run time: ${seconds.toFixed(0)} s; report written to ${shown(opts.out)}`);
}

const ISSUE_29_SECTION = '## Issue 29: the answer, measured (what each number saw)';
const ISSUE_32_SECTION = '## Issue 32: corrections';

try {
  await main();
} catch (err) {
  console.error(`eval failed: ${(err as Error).message}`);
  if (String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) console.error(USAGE);
  process.exitCode = 1;
}
