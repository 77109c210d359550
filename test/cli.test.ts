import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { formatBytes, uploadProgress } from '../src/cli/mindsim/upload-progress.ts';
import { timestamp, wrap } from '../src/cli/mindsim/simulation-view.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startService, type Service } from '../testkit/service.ts';

/** The `mindsim` CLI, a process as a user runs it, against the service in this process. */
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');
let srv: Service;
let home: string;
let vtt: string;

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-'));
  vtt = path.join(home, 'interview.vtt');
  fs.writeFileSync(vtt, teamsVtt(sampleInterview()));
});
after(() => srv?.close());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Runs the CLI from a folder that is not the project, as a user would. */
function mindsim(args: string[], opts: { env?: Record<string, string>; configured?: boolean; input?: string } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), ...opts.env };
  if (opts.configured !== false) Object.assign(env, { MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey });
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: home, env }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
    child.stdin?.end(opts.input ?? '');
  });
}

describe('mindsim CLI', () => {
  it('usage errors exit 2; --help exits 0', async () => {
    const [help, none, bogus, missing, unconfigured] = await Promise.all([
      mindsim(['--help']),
      mindsim([]),
      mindsim(['bogus']),
      mindsim(['minds', 'rm']),
      mindsim(['minds', 'ls'], { configured: false }),
    ]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /upload \[options\] <mindId> <files\.\.\.>/);
    for (const r of [none, bogus, missing, unconfigured]) assert.equal(r.code, 2, r.stderr);
    assert.match(unconfigured.stderr, /MINDSIM_BASE_URL/);
    assert.equal((await mindsim(['upload', '00000000-0000-4000-8000-000000000000', path.join(home, 'nope.vtt')])).code, 2);
  });

  it('login stores the URL and key in a 0600 file that later commands use', async () => {
    const r = await mindsim(['login', '--base-url', srv.baseUrl, '--api-key', srv.apiKey, '--json'], { configured: false });
    assert.equal(r.code, 0, r.stderr);
    const file = r.json().configPath as string;
    assert.equal(file, path.join(home, 'config', 'mindsim', 'config.json'));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const ls = await mindsim(['minds', 'ls', '--json'], { configured: false });
    assert.equal(ls.code, 0, ls.stderr);
    assert.ok(Array.isArray(ls.json().minds), 'the API\'s {minds} envelope');
    const bad = await mindsim(['login', '--base-url', srv.baseUrl, '--api-key', 'msk_00000000_nope'], { configured: false });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid_api_key/);
  });

  it('minds create, ls, rm with --json; API errors exit 1 with the error object', async () => {
    const created = await mindsim(['minds', 'create', 'Ana Lima', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const { mind, digitalTwin } = created.json();
    assert.equal(digitalTwin.name, 'Default');
    assert.ok((await mindsim(['minds', 'ls', '--json'])).json().minds.some((m: { id: string }) => m.id === mind.id));
    assert.deepEqual((await mindsim(['minds', 'rm', mind.id, '--json'])).json(), { deleted: true, mindId: mind.id });
    const again = await mindsim(['minds', 'rm', mind.id, '--json']);
    assert.equal(again.code, 1);
    assert.equal(again.json().code, 'MIND_NOT_FOUND');
    assert.match(again.stderr, /not found/);
  });

  it('upload --wait --json prints the final status; no progress drawn when stderr is not a TTY; then status, simulate, chat', async () => {
    const { mind } = (await mindsim(['minds', 'create', 'Sam Okafor', '--json'])).json();
    const up = await mindsim(['upload', mind.id, vtt, '--wait', '--json']);
    assert.equal(up.code, 0, up.stderr);
    const final = up.json();
    assert.equal(final.status, 'completed');
    assert.equal(up.stderr, '', 'nothing drawn on a non-TTY stderr');
    const notes = path.join(home, 'notes.txt');
    fs.writeFileSync(notes, 'just some notes, not a transcript');
    const [status, two, sim, human, chat, failed] = await Promise.all([
      mindsim(['status', mind.id, final.id, '--json']),
      mindsim(['upload', mind.id, vtt, vtt, '--json']),
      mindsim(['simulate', mind.id, 'Do you prefer working remotely?', '--model', 'mind-reasoner-standard', '--json']),
      mindsim(['simulate', mind.id, 'Do you prefer working remotely?']),
      mindsim(['chat', mind.id, '--json'], { input: 'How do you start your day?\n\nWhat about coffee?\n' }),
      mindsim(['upload', mind.id, notes, '--wait', '--json']),
    ]);
    assert.equal(failed.code, 1, 'a snapshot that ends failed is an error');
    assert.equal(failed.json().status, 'failed');
    assert.match(failed.stderr, /failed: .+/);
    assert.equal(status.json().status, 'completed');
    assert.equal(two.json().snapshots.length, 2);
    assert.equal(two.json().snapshots[0].message, 'Mind assessment started');
    assert.equal(sim.code, 0, sim.stderr);
    assert.ok(sim.json().evidence.length > 0);
    for (const label of ['Thinking', 'Feeling', 'Saying', 'Acting', 'Confidence', 'Evidence']) assert.match(human.stdout, new RegExp(label));
    assert.match(human.stdout, /\[\d\d:\d\d/);
    assert.equal(chat.code, 0, chat.stderr);
    const lines = chat.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.ok(lines.every((l) => typeof l.analysis.saying === 'string'));
  });

  it('draws a byte progress bar and a status line on a TTY', { skip: !fs.existsSync('/usr/bin/script') && 'util-linux script not installed' }, async () => {
    const { mind } = (await mindsim(['minds', 'create', 'Sam Okafor', '--json'])).json();
    const cmd = [process.execPath, BIN, 'upload', mind.id, vtt, '--wait'].map((a) => `'${a}'`).join(' ');
    const tty = await new Promise<string>((resolve, reject) => {
      const env = { ...process.env, MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey, XDG_CONFIG_HOME: path.join(home, 'config') };
      execFile('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { cwd: home, env }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    assert.match(tty, /interview\.vtt \|[█░]+\| 100% 4\.\d KB \/ 4\.\d KB/);
    assert.match(tty, /snapshot [0-9a-f-]{36} completed/);
  });
});

describe('mindsim login on a terminal', () => {
  it('does not echo the API key as it is typed', { skip: !fs.existsSync('/usr/bin/script') && 'util-linux script not installed' }, async () => {
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-login-'));
    const cmd = [process.execPath, BIN, 'login', '--base-url', srv.baseUrl].map((a) => `'${a}'`).join(' ');
    const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: config };
    const tty = await new Promise<string>((resolve, reject) => {
      const child = spawn('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { cwd: home, env });
      let out = '';
      let typed = false;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // type the key once the prompt is up, as a person would
        if (!typed && out.includes('API key:')) {
          typed = true;
          child.stdin.write(`${srv.apiKey}\r`);
        }
        if (out.includes('Logged in to')) child.stdin.end();
      });
      child.once('error', reject);
      child.once('exit', () => resolve(out));
    });
    assert.match(tty, /API key:/);
    assert.ok(!tty.includes(srv.apiKey), 'the key is not echoed');
    assert.match(tty, /Logged in to/);
    const saved = JSON.parse(fs.readFileSync(path.join(config, 'mindsim', 'config.json'), 'utf8')) as { apiKey: string };
    assert.equal(saved.apiKey, srv.apiKey);
  });
});

describe('CLI rendering', () => {
  it('formats bytes, timestamps and wrapped text; a progress bar on a non-TTY stream writes nothing', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(50 * 1024 * 1024), '50 MB');
    assert.equal(timestamp(67), '01:07');
    assert.equal(timestamp(3725), '01:02:05');
    assert.equal(wrap('one two three four', 12, 2), 'one two\n  three four');
    const stream = new PassThrough();
    let written = '';
    stream.on('data', (d: Buffer) => (written += d.toString()));
    const bar = uploadProgress('a.vtt', 100, stream as unknown as NodeJS.WriteStream);
    bar.update(50);
    bar.stop();
    assert.equal(written, '');
  });
});
