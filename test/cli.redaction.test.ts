import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim minds create --redaction` and `mindsim minds update --redaction`, as processes, against the service in this process. */
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');
let srv: Service;
let home: string;

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-redaction-'));
});
after(async () => {
  await srv?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

function mindsim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey };
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: home, env }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

it("creates a mind with a redaction, changes it, refuses an unknown mode; the service's default without one", async () => {
  const created = await mindsim('--json', 'minds', 'create', 'Sam Okafor', '--redaction', 'stored');
  assert.equal(created.code, 0, created.stderr);
  const { mind } = JSON.parse(created.stdout) as { mind: { id: string; redaction: string } };
  assert.equal(mind.redaction, 'stored');

  const updated = await mindsim('minds', 'update', mind.id, '--redaction', 'outbound');
  assert.equal(updated.code, 0, updated.stderr);
  assert.match(updated.stdout, /redaction outbound/);
  assert.equal((await srv.sdk().minds.get(mind.id)).redaction, 'outbound');

  const bad = await mindsim('minds', 'update', mind.id, '--redaction', 'everything');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--redaction takes off, outbound, stored/);
  assert.equal((await mindsim('minds', 'update', mind.id)).code, 2, 'nothing to change is a usage error');

  // No LLM configured here: the default is off.
  const plain = await mindsim('minds', 'create', 'Dana Reyes');
  assert.match(plain.stdout, /redaction off/);
});
