/**
 * `mindsim panel …` as a user runs it (a process per command) against the service in this process:
 * a YAML file run with --wait writing CSV to a file and JSON to stdout, the results summary, get,
 * list, answers, cancel and delete; a bad questions file refused before anything is sent; and,
 * with the worker paused so the panel surely waits, Ctrl-C while waiting and a panel cancelled
 * under a waiting CLI. Two minds from one interview (Sam: remote work, two coffees a day, hires for
 * curiosity and clear writing), so the answers are known; nobody talks about football.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Panel, PanelAnswer } from '@mindsim/sdk';
import { readQuestionsFile } from '../src/cli/mindsim/panel-file.ts';
import { panelProgress } from '../src/cli/mindsim/panel-progress.ts';
import { UsageError } from '../src/cli/mindsim/terminal.ts';
import { type TestSdk, interviewMind } from '../testkit/sdk.ts';
import { startSwitchedService, type SwitchedService } from './support/worker-switch.ts';
import { waitUntil } from '../testkit/wait.ts';

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
let srv: SwitchedService;
let sdk: TestSdk;
let home: string;
const minds = { enterprise: '', startup: '' };

/** Block and flow lists, a likert scale with labels: what people write by hand. */
const QUESTIONS_YAML = `name: Remote work pulse
questions:
  - id: where
    text: Where are you more productive?
    type: single
    options:
      - At home
      - In the office
  - id: hiring
    text: What do you look for first when you hire engineers?
    type: multiple
    options: [Curiosity, Clear writing, A famous university degree]
  - id: remote-love
    text: How much do you enjoy working from home?
    type: likert
    scale: { min: 1, max: 5, labels: [Not at all, A little, Somewhat, A lot, Completely] }
  - id: coffee
    text: How many cups of coffee do you drink a day?
    type: number
  - id: football
    text: Which football club do you support?
    type: single
    options: [Arsenal, Liverpool, Real Madrid]
`;
const Q = 5;

const file = (name: string, text: string) => {
  const f = path.join(home, name);
  fs.writeFileSync(f, text);
  return f;
};

before(async () => {
  srv = await startSwitchedService();
  sdk = srv.sdk();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-panels-'));
  [minds.enterprise, minds.startup] = await Promise.all([interviewMind(sdk, 'Sam Okafor', ['enterprise']), interviewMind(sdk, 'Sam Twin', ['startup'])]);
  file('questions.yaml', QUESTIONS_YAML);
});
after(async () => {
  fs.rmSync(home, { recursive: true, force: true });
  await srv?.close();
});

interface Run {
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const env = () => ({ PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey });

function mindsim(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: home, env: env() }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, signal: child.signalCode, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** A CLI process the test talks to while it runs: its stderr so far, and a wait for a line on it. */
function started(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Run>((resolve) => child.once('exit', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr })));
  const seen = (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> =>
    waitUntil(
      () => {
        const m = pattern.exec(stderr);
        if (!m) assert.equal(child.exitCode, null, `exited without printing ${pattern}: ${stderr}`);
        return m;
      },
      { what: () => `${pattern} printed (so far: ${stderr})`, timeoutMs },
    );
  return { child, done, seen };
}

const noStackTrace = (r: Run) => assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');

describe('mindsim panel run --wait', () => {
  let panelId = '';

  it('runs a YAML file over tags, writes the CSV to --out and the summary per question to stderr', async () => {
    const out = path.join(home, 'answers.csv');
    const r = await mindsim(['panel', 'run', 'questions.yaml', '--tags', 'enterprise,startup', '--model', 'mind-reasoner-standard', '--wait', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', 'the answers went to the file');
    panelId = UUID.exec(r.stderr)?.[0] ?? '';
    assert.match(r.stderr, new RegExp(`Panel ${panelId} "Remote work pulse": 2 minds × 5 questions = 10 answers \\(mind-reasoner-standard\\)`));
    assert.match(r.stderr, new RegExp(`panel ${panelId}: completed, 10/10 answers, 2/2 minds`), 'plain progress lines when stderr is not a TTY');
    assert.match(r.stderr, /Wrote 10 answers \(CSV\) to .*answers\.csv/);
    // The summary: counts per option, no_evidence counted apart, figures for the scale.
    assert.match(r.stderr, /where \(single\) Where are you more productive\?\n {2}2 answered, 0 no_evidence\n {2}At home +2 +100%\n {2}In the office +0 +0%/);
    assert.match(r.stderr, /football \(single\) Which football club do you support\?\n {2}0 answered, 2 no_evidence/);
    assert.match(r.stderr, /coffee \(number\)[^\n]*\n {2}2 answered, 0 no_evidence\n {2}mean 2, median 2, min 2, max 2/);
    assert.match(r.stderr, /Tag enterprise \(1 mind\)/);
    assert.match(r.stderr, new RegExp(`Panel ${panelId} completed: 10/10 answers from 2/2 minds`));

    const rows = parse(fs.readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 2 * Q);
    const of = (q: string) => rows.filter((row) => row.question_id === q);
    assert.deepEqual(of('where').map((row) => [row.status, row.choices]), [['answered', 'At home'], ['answered', 'At home']]);
    assert.deepEqual(of('coffee').map((row) => row.value), ['2', '2']);
    assert.deepEqual(of('football').map((row) => [row.status, row.choices, row.value]), [['no_evidence', '', ''], ['no_evidence', '', '']]);
    assert.ok(of('hiring').every((row) => row.choices?.includes('Curiosity') && !row.choices.includes('famous')));
    assert.deepEqual(new Set(rows.map((row) => row.mind_id)), new Set([minds.enterprise, minds.startup]));
  });

  it('a JSON list of questions over --minds: {panel, answers} on stdout with --format json', async () => {
    const questions = [
      { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'number' },
      { text: 'How do you deal with burnout?', type: 'open' },
    ];
    file('two.json', JSON.stringify(questions));
    const [json, viaFlag] = await Promise.all([
      mindsim(['panel', 'run', 'two.json', '--minds', minds.startup, '--name', 'Two things', '--wait', '--format', 'json']),
      mindsim(['panel', 'run', 'two.json', '--minds', minds.startup, '--wait', '--json']),
    ]);
    for (const r of [json, viaFlag]) {
      assert.equal(r.code, 0, r.stderr);
      const { panel, answers } = JSON.parse(r.stdout) as { panel: Panel; answers: PanelAnswer[] };
      assert.equal(panel.status, 'completed');
      assert.deepEqual([panel.minds, panel.total, panel.done], [1, 2, 2]);
      assert.equal(panel.results?.length, 2, 'the final panel with its results');
      assert.deepEqual(answers.map((a) => [a.mindId, a.questionId, a.status]), [[minds.startup, 'coffee', 'answered'], [minds.startup, 'q2', 'answered']]);
      assert.equal(answers[0]?.value, 2);
      assert.ok(answers[1]?.evidence.length, 'the open answer rests on the interview');
    }
    assert.equal((JSON.parse(json.stdout) as { panel: Panel }).panel.name, 'Two things');
    assert.equal((JSON.parse(viaFlag.stdout) as { panel: Panel }).panel.name, '2 questions to 1 mind');
  });

  it('get, list and answers read the panel back', async () => {
    assert.ok(panelId, 'the first test ran');
    const [get, getJson, list, listJson, answersJson, answersCsv] = await Promise.all([
      mindsim(['panel', 'get', panelId]),
      mindsim(['panel', 'get', panelId, '--json']),
      mindsim(['panel', 'list']),
      mindsim(['panel', 'list', '--json', '--limit', '1']),
      mindsim(['panel', 'answers', panelId, '--question', 'football', '--format', 'json']),
      mindsim(['panel', 'answers', panelId, '--out', 'again.csv']),
    ]);
    for (const r of [get, getJson, list, listJson, answersJson, answersCsv]) assert.equal(r.code, 0, r.stderr);
    assert.match(get.stdout, new RegExp(`Panel ${panelId}: completed`));
    assert.match(get.stdout, /progress {2}10\/10 answers, 2\/2 minds done/);
    assert.match(get.stdout, /tags {6}enterprise, startup/);
    assert.match(get.stdout, /At home +2 +100%/);
    const { panel } = JSON.parse(getJson.stdout) as { panel: Panel };
    assert.equal(panel.results?.find((q) => q.questionId === 'football')?.noEvidence, 2);
    assert.match(list.stdout, new RegExp(`^${panelId} .* completed +10/10 +Remote work pulse$`, 'm'));
    assert.equal(list.stdout.trim().split('\n').length, 3, 'the three panels so far');
    const listed = JSON.parse(listJson.stdout) as { panels: Panel[]; count: number };
    assert.deepEqual([listed.count, listed.panels.length], [3, 1]);
    const football = JSON.parse(answersJson.stdout) as { answers: PanelAnswer[]; count: number };
    assert.equal(football.count, 2);
    assert.ok(football.answers.every((a) => a.questionId === 'football' && a.status === 'no_evidence'));
    assert.equal((parse(fs.readFileSync(path.join(home, 'again.csv'), 'utf8'), { columns: true }) as unknown[]).length, 2 * Q);
  });
});

describe('a questions file that is wrong', () => {
  it('exits 2 with what is wrong and where, no stack trace, nothing sent', async () => {
    file('typo.yaml', 'questions:\n  - text: Coffee?\n    type: nubmer\n    option: [a]\n');
    const before = (await sdk.panels.list()).count;
    const [missing, typo, noMinds] = await Promise.all([
      mindsim(['panel', 'run', 'nope.yaml', '--tags', 'enterprise']),
      mindsim(['panel', 'run', 'typo.yaml', '--tags', 'enterprise', '--wait']),
      mindsim(['panel', 'run', 'questions.yaml']),
    ]);
    for (const r of [missing, typo, noMinds]) {
      assert.equal(r.code, 2, r.stderr);
      noStackTrace(r);
    }
    assert.equal(missing.stderr, 'mindsim: Cannot read nope.yaml: no such file\n');
    assert.match(typo.stderr, /typo\.yaml is not a questions file:\n {2}question 1, type: Invalid option: expected one of "open"\|"single"/);
    assert.match(typo.stderr, /question 1: Unrecognized key: "option"/);
    assert.match(noMinds.stderr, /Choose the minds: --tags .* --minds/);
    assert.equal((await sdk.panels.list()).count, before);
  });

  it('each mistake in the file is named (read in this process)', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['broken.yaml', 'questions: [\n', /broken\.yaml is not valid YAML: .*line 2/],
      ['broken.json', '{"questions": [', /broken\.json is not valid JSON/],
      ['empty.yaml', '', /empty\.yaml is empty/],
      ['scalar.yaml', 'just words', /scalar\.yaml is not a questions file: expected a list of questions, or \{name, questions/],
      ['none.yaml', 'questions: []', /none\.yaml is not a questions file:\n {2}questions: there are no questions/],
      ['notext.yaml', '- type: open', /question 1, text: Invalid input: expected string/],
      ['one-option.yaml', '- text: Which?\n  type: single\n  options: [Only]', /one-option\.yaml: Question 1: a single question needs at least two options\./],
      ['scale.yaml', '- text: How much?\n  type: likert\n  scale: {min: 5, max: 1}', /Question 1: max must be greater than min\./],
      ['dup.yaml', '- {id: a, text: One?, type: open}\n- {id: a, text: Two?, type: open}', /Question 2: the id "a" is used twice\./],
    ];
    for (const [name, text, pattern] of cases) {
      const f = file(name, text);
      assert.throws(() => readQuestionsFile(f), (err: Error) => err instanceof UsageError && pattern.test(err.message), name);
    }
    // Unquoted YAML scalars are options too; a list alone is the questions.
    const ok = readQuestionsFile(file('scalars.yaml', '- text: Agree?\n  type: single\n  options: [Yes, No, 3]\n'));
    assert.deepEqual(ok, { questions: [{ text: 'Agree?', type: 'single', options: ['Yes', 'No', '3'] }] });
  });
});

describe('while a panel waits for the worker', () => {
  let interrupted = '';
  before(() => srv.pauseWorker());

  it('without --wait prints the panel id; Ctrl-C while waiting stops waiting, not the panel', async () => {
    const queued = await mindsim(['panel', 'run', 'questions.yaml', '--tags', 'enterprise']);
    assert.equal(queued.code, 0, queued.stderr);
    assert.match(queued.stdout, new RegExp(`^${UUID.source}\n$`));
    assert.match(queued.stderr, /mindsim panel get/);
    assert.equal((await sdk.panels.get(queued.stdout.trim())).panel.status, 'queued');

    const waiting = started(['panel', 'run', 'questions.yaml', '--tags', 'startup', '--wait']);
    const id = (await waiting.seen(new RegExp(`panel (${UUID.source}): queued, 0/5 answers`)))[1] ?? '';
    waiting.child.kill('SIGINT');
    const r = await waiting.done;
    assert.equal(r.code, 130, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`Stopped waiting: panel ${id} keeps running on the server\\. Follow it with \`mindsim panel get ${id}\``));
    noStackTrace(r);
    assert.equal((await sdk.panels.get(id)).panel.status, 'queued', 'the panel is still there');
    interrupted = id;
  });

  it('a panel cancelled under a waiting CLI ends it with exit 1; cancel twice is an API error; delete removes it', async () => {
    const waiting = started(['panel', 'run', 'questions.yaml', '--tags', 'enterprise', '--wait', '--format', 'json']);
    const id = (await waiting.seen(new RegExp(`Panel (${UUID.source})`)))[1] ?? '';
    const cancel = await mindsim(['panel', 'cancel', id]);
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.equal(cancel.stdout, `Cancelled panel ${id}: 0/5 answers kept\n`);
    const r = await waiting.done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`mindsim: panel ${id} was cancelled; 0 of 5 answers stored`));
    assert.deepEqual((JSON.parse(r.stdout) as { panel: Panel; answers: unknown[] }).answers, [], 'the answers so far are written all the same');

    const again = await mindsim(['panel', 'cancel', id, '--json']);
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.stdout).code, 'PANEL_FINISHED');
    const [deleted, deletedJson] = await Promise.all([mindsim(['panel', 'delete', id]), mindsim(['panel', 'rm', interrupted, '--json'])]);
    assert.equal(deleted.stdout, `Deleted panel ${id}\n`);
    assert.equal(JSON.parse(deletedJson.stdout).message, 'Panel deleted successfully');
    const gone = await mindsim(['panel', 'get', id]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /PANEL_NOT_FOUND/);
  });

  it('draws a progress bar on a TTY', { skip: !fs.existsSync('/usr/bin/script') && 'util-linux script not installed' }, async () => {
    const cmd = [process.execPath, BIN, 'panel', 'run', 'questions.yaml', '--tags', 'startup', '--wait', '--out', 'tty.csv'].map((a) => `'${a}'`).join(' ');
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { cwd: home, env: env() });
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        // the worker resumes once the bar is up, so the bar is seen moving to the end
        if (text.includes('answers ·')) srv.resumeWorker();
      });
      child.once('error', reject);
      child.once('exit', () => resolve(text));
    });
    assert.match(out, /panel \|[░]+\| 0\/5 answers · 0\/1 minds · queued/);
    assert.match(out, /panel \|█+\| 5\/5 answers · 1\/1 minds · completed/);
    assert.match(out, /Wrote 5 answers \(CSV\) to tty\.csv/);
    assert.match(out, /Tag startup\S*: every mind carries it \(the results above\)/, 'a tag every mind carries is not repeated');
  });
});

describe('CLI panel rendering', () => {
  it('progress on a non-TTY stream: a line per status change, at most one per interval while answers come in', () => {
    const stream = new PassThrough();
    let written = '';
    stream.on('data', (d: Buffer) => (written += d.toString()));
    let now = 0;
    const progress = panelProgress(stream as unknown as NodeJS.WriteStream, 5_000, () => now);
    const p = (status: Panel['status'], done: number) => ({ id: 'p', status, done, total: 10, minds: 2, mindsDone: Math.floor(done / 5) }) as Panel;
    progress.update(p('queued', 0));
    progress.update(p('queued', 0));
    progress.update(p('running', 1));
    now = 1_000;
    progress.update(p('running', 3));
    now = 6_000;
    progress.update(p('running', 5));
    progress.update(p('completed', 10));
    progress.stop();
    assert.equal(
      written,
      ['panel p: queued, 0/10 answers, 0/2 minds', 'panel p: running, 1/10 answers, 0/2 minds', 'panel p: running, 5/10 answers, 1/2 minds', 'panel p: completed, 10/10 answers, 2/2 minds', ''].join('\n'),
    );
  });
});
