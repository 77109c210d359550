/**
 * The README and docs/ as a newcomer uses them: every relative link points to a file (and a heading)
 * that exists, and the README's commands run. The curl walk is taken from the README's code block as
 * it is written and run with bash against a service started as `npm start` starts it; `BASE` and
 * `KEY` are this service's, and every `NAME=…  # .path of the answer` line takes its value from the
 * answer of the command before it, as a reader copies it. Then the CLI's three lines, the same way.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../testkit/process.ts';
import { waitUntil } from '../testkit/wait.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOC_FILES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

// ------------------------------------------------------------------ Markdown, as far as links need it

interface Block {
  lang: string;
  text: string;
  /** The heading the block sits under. */
  section: string;
}

/** Fenced code blocks, in order, with the heading each sits under. */
function codeBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let open: Block | null = null;
  for (const line of md.split('\n')) {
    const fence = /^```(\S*)/.exec(line);
    if (open) {
      if (/^```\s*$/.test(line)) {
        blocks.push(open);
        open = null;
      } else open.text += `${line}\n`;
    } else if (fence) open = { lang: fence[1] ?? '', text: '', section };
    else if (/^#{1,6}\s/.test(line)) section = line.replace(/^#+\s*/, '');
  }
  return blocks;
}

/** The text outside fenced code blocks and inline code spans, line by line (line numbers kept). */
function prose(md: string): string[] {
  let inFence = false;
  return md.split('\n').map((line) => {
    if (/^```/.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's anchor for a heading: its text without formatting, lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file's headings make (repeated headings get -1, -2…). */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let inFence = false;
  for (const line of md.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const h = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links and images of a Markdown file that lead nowhere: a missing file, or a missing heading. */
function brokenLinks(file: string, md: string, readTarget: (file: string) => string | null): string[] {
  const broken: string[] = [];
  prose(md).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart = '', anchor] = target.split('#');
      const targetFile = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart))) : file;
      const where = `${file}:${i + 1} → ${target}`;
      const content = readTarget(targetFile);
      if (content === null) broken.push(`${where}: no file ${targetFile}`);
      else if (anchor && targetFile.endsWith('.md') && !anchors(content).has(anchor)) broken.push(`${where}: no heading #${anchor} in ${targetFile}`);
    }
  });
  return broken;
}

const fromRepo = (file: string): string | null => {
  const full = path.join(ROOT, file);
  if (!full.startsWith(ROOT + path.sep) || !fs.existsSync(full)) return null;
  return fs.statSync(full).isFile() ? fs.readFileSync(full, 'utf8') : '';
};

describe('links in the README and docs/', () => {
  it('finds a missing file and a missing heading (the check itself)', () => {
    const files: Record<string, string> = { 'docs/A.md': '# Node.js\n## Clients: the SDK, the `mindsim` CLI\n## CLI\n## CLI\n```sh\n# not a heading\n```\n' };
    const md = [
      '[ok](A.md#nodejs) [ok](A.md#clients-the-sdk-the-mindsim-cli) [ok](A.md#cli-1) [ok](#own)',
      '[missing](B.md) [no heading](A.md#not-a-heading) ![img](images/x.png) [web](https://example.com/x)',
      '`[in code](C.md)`',
      '```',
      '[in a block](D.md)',
      '```',
      '# Own',
    ].join('\n');
    const broken = brokenLinks('docs/X.md', md, (f) => (f === 'docs/X.md' ? md : (files[f] ?? null)));
    assert.deepEqual(
      broken.map((b) => b.replace(/^.* → /, '')),
      ['B.md: no file docs/B.md', 'A.md#not-a-heading: no heading #not-a-heading in docs/A.md', 'images/x.png: no file docs/images/x.png'],
    );
  });

  for (const file of DOC_FILES) {
    it(`${file}: every relative link points to a file and heading that exist`, () => {
      assert.deepEqual(brokenLinks(file, read(file), fromRepo), []);
    });
  }

  it('the README links the docs it hands over to, and keeps its screenshot', () => {
    const readme = read('README.md');
    for (const target of ['docs/API.md', 'docs/OPERATIONS.md', 'docs/CONTRIBUTING.md', 'docs/ARCHITECTURE.md', 'docs/DECISIONS.md', 'docs/images/dashboard-mind.png']) {
      assert.ok(readme.includes(`](${target}`), `README links ${target}`);
    }
    assert.ok(readme.split('\n').length <= 150, `the README is a front door: ${readme.split('\n').length} lines`);
  });
});

// ------------------------------------------------------------------ the README's commands, run

type Step = { kind: 'run'; command: string } | { kind: 'set'; name: string; value: string; from?: string };

/** A shell block as steps: commands (with their `\` continuations) and variable assignments. */
function steps(block: string): Step[] {
  const out: Step[] = [];
  let pending = '';
  for (const raw of block.split('\n')) {
    const line = raw.trimEnd();
    if (pending) {
      pending += `\n${line}`;
      if (!line.endsWith('\\')) {
        out.push({ kind: 'run', command: pending });
        pending = '';
      }
      continue;
    }
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const set = /^([A-Z_][A-Z0-9_]*)=(\S*)\s*(?:#\s*(.*))?$/.exec(line);
    if (set) {
      const from = /(\.[\w.]+) of the answer/.exec(set[3] ?? '')?.[1];
      out.push({ kind: 'set', name: set[1] ?? '', value: set[2] ?? '', ...(from ? { from } : {}) });
    } else if (line.endsWith('\\')) pending = line;
    else out.push({ kind: 'run', command: line });
  }
  assert.equal(pending, '', 'a command continued past the end of its block');
  return out;
}

/** `.a.b` of a JSON value. */
function at(value: unknown, jsonPath: string): unknown {
  return jsonPath
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

function bash(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${command}`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const README = read('README.md');
const blocks = codeBlocks(README);
const walkIndex = blocks.findIndex((b) => b.lang === 'sh' && /^BASE=/m.test(b.text) && b.text.includes('curl '));
const curlMissing = spawnSync('curl', ['--version']).error ? 'curl is not installed (.ci/run installs it)' : false;
const DEFAULT_URL = 'http://127.0.0.1:8080';

describe("the README's commands", { skip: curlMissing }, () => {
  let srv: TestServer;
  let home: string;
  const vars: Record<string, string> = {};
  before(async () => {
    srv = await startServer();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-docs-'));
  });
  after(async () => {
    await srv?.stop();
    for (const dir of [home, srv?.dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What a reader's shell holds: this service's address instead of the default one, a home of its own. */
  const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), ...vars, ...extra };
    for (const k of ['MINDSIM_BASE_URL', 'MINDSIM_API_KEY']) if (!(k in extra)) delete env[k];
    return env;
  };

  it('the curl walk: create a mind, upload a transcript, poll its status, simulate; the answer has a message', { timeout: 300_000 }, async () => {
    assert.ok(walkIndex >= 0, 'the README has a sh block with BASE= and curl');
    const walk = steps(blocks[walkIndex]?.text ?? '');
    const provided: Record<string, string> = { BASE: `${srv.baseUrl}/api/public/v1`, KEY: srv.apiKey };
    const commands = walk.filter((s) => s.kind === 'run');
    assert.ok(commands.length >= 4, `four calls at least: ${commands.length}`);
    let answer: unknown = null;
    for (const step of walk) {
      if (step.kind === 'set') {
        if (step.name in provided) {
          if (step.name === 'BASE') assert.equal(step.value, `${DEFAULT_URL}/api/public/v1`, 'the README points at the default address');
          vars[step.name] = provided[step.name] ?? '';
        } else if (step.from) {
          const value = at(answer, step.from);
          assert.equal(typeof value, 'string', `${step.name}: ${step.from} of ${JSON.stringify(answer)}`);
          vars[step.name] = value as string;
        } else {
          assert.ok(!step.value.includes('…'), `${step.name} is set to "${step.value}" without saying where it comes from`);
          vars[step.name] = step.value;
        }
        continue;
      }
      const polls = step.command.includes('/status');
      // 120 s: a backstop against a hang, not a measure (it completes in seconds)
      await waitUntil(
        async () => {
          const r = await bash(step.command, shellEnv());
          assert.equal(r.code, 0, `${step.command}\n${r.stderr}`);
          answer = JSON.parse(r.stdout);
          assert.notEqual(typeof (answer as { error?: unknown }).error, 'string', `an error body: ${r.stdout}`);
          const status = (answer as { status?: string }).status;
          return !polls || status === 'completed' || status === 'failed';
        },
        { what: `${step.command} final`, timeoutMs: 120_000, intervalMs: 200 },
      );
      if (polls) assert.equal((answer as { status?: string }).status, 'completed', JSON.stringify(answer));
    }
    const sim = answer as { message?: unknown; analysis?: object; evidence?: Array<object> };
    assert.equal(typeof sim.message, 'string');
    assert.ok((sim.message as string).length > 0, 'the answer has a message');

    // The answer the README shows "as it prints" has the fields the real one has.
    const shown = blocks.slice(walkIndex + 1).find((b) => b.lang === 'json');
    assert.ok(shown, 'the README shows the answer after the walk');
    const printed = JSON.parse(shown.text) as { message: string; analysis: object; evidence: Array<object> };
    for (const key of Object.keys(printed)) assert.ok(key in sim, `the answer has ${key}`);
    for (const key of Object.keys(printed.analysis)) assert.ok(key in (sim.analysis ?? {}), `the analysis has ${key}`);
    assert.ok(sim.evidence && sim.evidence.length > 0, 'the answer comes with evidence');
    for (const key of Object.keys(printed.evidence[0] ?? {})) assert.ok(key in (sim.evidence[0] ?? {}), `an evidence item has ${key}`);
    // …and what it shows the person saying is their own words, from the transcript the walk uploads.
    const vtt = fs.readFileSync(path.join(ROOT, 'docs/examples/interview.vtt'), 'utf8');
    const words = [...vtt.matchAll(/<v Sam Okafor>([^<]*)<\/v>/g)].map((m) => m[1]).join(' ');
    assert.ok(words.includes(printed.message), 'the README answer quotes the transcript');
  });

  it('the CLI in three lines: login, upload, simulate', { timeout: 300_000 }, async () => {
    assert.ok(vars.MIND_ID, 'the curl walk ran first and made MIND_ID');
    const cli = blocks.find((b) => b.lang === 'sh' && /^npx mindsim /m.test(b.text));
    assert.ok(cli, 'the README has a block of mindsim commands');
    const lines = steps(cli.text).filter((s) => s.kind === 'run');
    assert.equal(lines.length, 3);
    for (const { command } of lines as Array<{ command: string }>) {
      // login asks for the key on a terminal; without one it takes MINDSIM_API_KEY, then stores both.
      const extra: Record<string, string> = command.includes(' login') ? { MINDSIM_API_KEY: srv.apiKey } : {};
      const r = await bash(command.replaceAll(DEFAULT_URL, srv.baseUrl), shellEnv(extra));
      assert.equal(r.code, 0, `${command}\n${r.stdout}\n${r.stderr}`);
      if (command.includes(' upload ')) assert.match(r.stdout + r.stderr, /completed/);
      if (command.includes(' simulate ')) assert.match(r.stdout, /Answer/);
    }
  });
});
