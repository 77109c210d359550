/**
 * The first command on an old Node.js (docs/OPERATIONS.md, "Node.js"): `bin/check-node.cjs`, which
 * `npm start`, `npm test`, `npm run worker` and `npm run bench` run first, prints one line (the version
 * needed, that this one is past its end of life, the command that gets 24) and stops; `npm install`
 * refuses the version before it fetches anything. Checked with given versions everywhere, and with
 * the machine's real Node.js 20 where it has one (CI's Debian does; skipped otherwise).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHECK = path.join(ROOT, 'bin', 'check-node.cjs');
const check = createRequire(import.meta.url)(CHECK) as { problem(version: string): string | null; MINIMUM: { major: number; minor: number } };
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };

/** The same line, whatever the version: one line naming 24, the end of life, and the command. */
function assertTheLine(line: string, version: string) {
  assert.doesNotMatch(line.trimEnd(), /\n/, 'one line');
  assert.match(line, new RegExp(`^Node\\.js ${version.replace(/\./g, '\\.')} is past its end of life: `));
  assert.match(line, /needs Node\.js 24 \(or 22\.18 or later\)/);
  assert.match(line, /Get 24 with: source \.ci\/use-node\.sh 24/);
}

describe('bin/check-node.cjs', () => {
  it('keeps to package.json "engines"', () => {
    assert.equal(pkg.engines.node, `>=${check.MINIMUM.major}.${check.MINIMUM.minor}`);
  });

  it('is silent on a Node.js that runs the service', () => {
    for (const v of ['v22.18.0', 'v22.22.2', 'v23.11.1', 'v24.0.0', process.version, 'v26.1.0']) assert.equal(check.problem(v), null, v);
  });

  it('gives one line on an older one: end of life before 22, too old a 22', () => {
    for (const v of ['v20.20.2', 'v20.0.0', 'v18.20.8', 'v16.20.2', 'v21.7.3']) assertTheLine(check.problem(v) ?? '', v);
    const old22 = check.problem('v22.17.1') ?? '';
    assert.match(old22, /^Node\.js v22\.17\.1 is too old/);
    assert.match(old22, /Get 24 with: source \.ci\/use-node\.sh 24/);
  });

  it('as a command: the line on stderr and exit code 1, nothing on a supported Node.js', () => {
    const old = spawnSync(process.execPath, [CHECK, 'v20.20.2'], { encoding: 'utf8' });
    assert.equal(old.status, 1);
    assert.equal(old.stdout, '');
    assertTheLine(old.stderr, 'v20.20.2');
    assert.equal(old.stderr.split('\n').filter(Boolean).length, 1);
    const ok = spawnSync(process.execPath, [CHECK], { encoding: 'utf8' });
    assert.deepEqual([ok.status, ok.stdout, ok.stderr], [0, '', '']);
  });

  it('runs first in the scripts a newcomer starts with', () => {
    for (const script of ['prestart', 'pretest', 'preworker', 'prebench']) {
      assert.match(pkg.scripts[script] ?? '', /^node bin\/check-node\.cjs($| && )/, script);
    }
    assert.match(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8'), /^engine-strict=true$/m, 'npm install keeps refusing');
  });
});

/** A Node.js older than 22 on this machine (Debian's own 20 on CI), with the npm that came with it. */
function oldNode(): { node: string; npm: string; version: string } | null {
  const candidates = ['/usr/bin/node', '/usr/local/bin/node', ...(process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'node'))];
  for (const node of new Set(candidates)) {
    if (!fs.existsSync(node) || fs.realpathSync(node) === fs.realpathSync(process.execPath)) continue;
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    const npm = path.join(path.dirname(path.dirname(fs.realpathSync(node))), 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (/^v(\d+)\./.test(version) && Number(version.slice(1).split('.')[0]) < 22 && fs.existsSync(npm)) return { node, npm, version };
  }
  return null;
}

const old = oldNode();

describe(`on the machine's real ${old?.version ?? 'old Node.js'}`, { skip: old ? false : 'no Node.js older than 22 with its npm on this machine' }, () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  /** A copy of what npm reads (package.json, its lock, .npmrc, the workspace, the check), nothing installed. */
  function project(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-oldnode-'));
    dirs.push(dir);
    for (const f of ['package.json', 'package-lock.json', '.npmrc', 'bin/check-node.cjs', 'packages/sdk/package.json']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    }
    return dir;
  }
  /** npm on that Node.js, its node first on PATH (as in a shell where it is the default), offline, its cache apart. */
  function npm(dir: string, ...args: string[]) {
    if (!old) throw new Error('no old Node.js');
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
    env.PATH = [path.dirname(old.node), process.env.PATH].join(path.delimiter);
    env.npm_config_cache = path.join(dir, '.npm-cache');
    return spawnSync(old.node, [old.npm, ...args, '--offline'], { cwd: dir, env, encoding: 'utf8' });
  }

  it('the check script parses and runs on it: the line, exit code 1', () => {
    const r = spawnSync(old?.node ?? '', [CHECK], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assertTheLine(r.stderr, old?.version ?? '');
  });

  it('npm start prints the line before anything of the service runs, and stops', () => {
    const dir = project();
    const r = npm(dir, 'start');
    assert.notEqual(r.status, 0);
    const lines = r.stderr.split('\n').filter(Boolean);
    assertTheLine(lines[0] ?? '', old?.version ?? '');
    // npm's own banner on stdout names the script it runs, nothing more: src/main.ts never started.
    assert.doesNotMatch(r.stdout + r.stderr, /ERR_UNKNOWN_FILE_EXTENSION|ERR_MODULE_NOT_FOUND|Cannot find module/);
  });

  it('npm install refuses it before fetching anything (npm checks engines before any script of the project)', () => {
    const dir = project();
    const r = npm(dir, 'install');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /EBADENGINE|needs Node\.js 24/);
    assert.equal(fs.existsSync(path.join(dir, 'node_modules')), false, 'nothing installed');
  });
});

it('the README says which Node.js, and the command that gets 24, next to the first command', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const twoCommands = readme.slice(readme.indexOf('## The two commands'), readme.indexOf('npm install && npm start'));
  assert.match(twoCommands, /Node\.js 24/);
  assert.match(twoCommands, /20 is past its end of life/);
  assert.match(twoCommands, /source \.ci\/use-node\.sh 24/);
});
