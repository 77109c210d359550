import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { interviewMind } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim export <mindId>`, as a process, against the service in this process: the archive written whole, or nothing. */
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');
let srv: Service;
let home: string;
let mindId: string;

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-export-'));
  mindId = await interviewMind(srv.sdk(), 'Sam Okafor');
});
after(async () => {
  await srv?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

function mindsim(...args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: home, env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: stderr.toString() }),
    );
  });
}

const filesOf = (bytes: Uint8Array) => unzipSync(bytes);
const readmeNames = (files: Record<string, Uint8Array>) =>
  (JSON.parse(strFromU8(files['README.json'] ?? new Uint8Array())) as { files: Array<{ name: string }> }).files.map((f) => f.name).sort();

it("writes the archive under the service's file name, every file README.json lists in it", async () => {
  const r = await mindsim('export', mindId);
  assert.equal(r.code, 0, r.stderr);
  const written = fs.readdirSync(home).filter((f) => f.endsWith('.zip'));
  assert.equal(written.length, 1);
  assert.match(written[0] ?? '', /^mindsim-export-sam-okafor-\d{4}-\d{2}-\d{2}\.zip$/);
  assert.match(r.stderr, /Wrote the export of .* bytes, zip\) to mindsim-export-/);
  const file = path.join(home, written[0] ?? '');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, "the person's data is readable by its owner only");
  const files = filesOf(fs.readFileSync(file));
  assert.deepEqual(Object.keys(files).filter((n) => n !== 'README.json').sort(), readmeNames(files));
  assert.ok(readmeNames(files).some((n) => n.startsWith('uploads/')));
});

it('--out writes where it is told, refuses to replace a file without --force, and --json prints what it wrote', async () => {
  const first = await mindsim('export', mindId, '--out', 'sam.zip');
  assert.equal(first.code, 0, first.stderr);
  const again = await mindsim('export', mindId, '--out', 'sam.zip');
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists: give --force/);
  const forced = await mindsim('--json', 'export', mindId, '--out', 'sam.zip', '--force');
  assert.equal(forced.code, 0, forced.stderr);
  const printed = JSON.parse(forced.stdout.toString()) as { mindId: string; file: string; bytes: number };
  assert.deepEqual(printed, { mindId, file: 'sam.zip', bytes: fs.statSync(path.join(home, 'sam.zip')).size });
  assert.ok('README.json' in filesOf(fs.readFileSync(path.join(home, 'sam.zip'))));
});

it('--out - streams the archive to a redirected stdout', async () => {
  const r = await mindsim('export', mindId, '--out', '-');
  assert.equal(r.code, 0, r.stderr);
  assert.ok('README.json' in filesOf(new Uint8Array(r.stdout)));
});

it('an unknown mind is an API error (exit 1) and leaves no file behind', async () => {
  const before = fs.readdirSync(home);
  const r = await mindsim('export', '00000000-0000-4000-8000-000000000000', '--out', 'nobody.zip');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /MIND_NOT_FOUND, HTTP 404/);
  assert.deepEqual(fs.readdirSync(home), before);
});
