import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runMindsim } from '../testkit/cli.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim audit`: the account's access log, as lines and as JSON, filtered by mind and time (a process against the service in this one). */
let srv: Service;
let home: string;
let mindId = '';
let otherMindId = '';

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-audit-'));
  const sdk = srv.sdk();
  mindId = (await sdk.minds.create('Audited Person')).mind.id;
  await sdk.minds.get(mindId);
  await sdk.minds.get(mindId);
  otherMindId = (await sdk.minds.create('Another Person')).mind.id;
});
after(() => {
  fs.rmSync(home, { recursive: true, force: true });
  return srv?.close();
});

const mindsim = (args: string[]) => runMindsim(home, srv, args);

describe('mindsim audit', () => {
  it('prints a mind’s rows newest first, as lines and as JSON; --from/--to filter; bad flags are usage errors', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [lines, json, limited, past, badMind, badTime] = await Promise.all([
      mindsim(['audit', '--mind', mindId]),
      mindsim(['audit', '--mind', mindId, '--from', today, '--to', today, '--json']),
      mindsim(['audit', '--limit', '1']),
      mindsim(['audit', '--mind', mindId, '--to', '2000-01-01']),
      mindsim(['audit', '--mind', 'not-an-id']),
      mindsim(['audit', '--from', 'yesterday']),
    ]);
    assert.equal(lines.code, 0, lines.stderr);
    assert.match(lines.stdout, /3 accesses, newest first/);
    const rows = lines.stdout.trim().split('\n').slice(1);
    assert.equal(rows.length, 3);
    assert.match(rows[0] ?? '', new RegExp(`mind\\.read\\s+${mindId}\\s+key:[0-9a-f-]{36} from 127\\.0\\.0\\.1`));
    assert.match(rows[2] ?? '', /mind\.create/);
    assert.ok(!lines.stdout.includes(otherMindId));

    assert.equal(json.code, 0, json.stderr);
    const { entries } = JSON.parse(json.stdout) as { entries: Array<{ action: string; mindId: string }> };
    assert.deepEqual(entries.map((e) => e.action), ['mind.read', 'mind.read', 'mind.create']);
    assert.ok(entries.every((e) => e.mindId === mindId));

    assert.equal(limited.code, 0, limited.stderr);
    assert.match(limited.stdout, /1 access, newest first[\s\S]*More rows: --limit 2/);
    assert.match(past.stdout, /No access recorded/);
    assert.equal(badMind.code, 2);
    assert.match(badMind.stderr, /--mind takes a mind id/);
    assert.equal(badTime.code, 2);
    assert.match(badTime.stderr, /--from takes an ISO date/);
  });
});
