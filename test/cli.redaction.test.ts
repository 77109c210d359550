import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { runMindsim } from '../testkit/cli.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim minds create --redaction` and `mindsim minds update --redaction`, as processes, against the service in this process. */
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

const mindsim = (...args: string[]) => runMindsim(home, srv, args);

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
