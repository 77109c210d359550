import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { blobOf, waitFor } from '../testkit/sdk.ts';
import { runMindsim } from '../testkit/cli.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim chat` keeps one conversation; `mindsim simulations ls|show|rm`: processes against the service in this process. */
let srv: Service;
let home: string;
let mindId = '';

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-sims-'));
  const sdk = srv.sdk();
  mindId = (await sdk.minds.create('Sam Okafor')).mind.id;
  const r = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
  assert.equal((await waitFor(sdk, mindId, r.mindAssessmentId)).status, 'completed');
});
after(() => {
  fs.rmSync(home, { recursive: true, force: true });
  return srv?.close();
});

const mindsim = (args: string[], input = '') => runMindsim(home, srv, args, input);

describe('mindsim chat and simulations', () => {
  it('chat keeps one conversation across its turns; simulations ls and show list and print it; rm deletes it', async () => {
    const chat = await mindsim(['chat', mindId, '--model', 'mind-reasoner-standard', '--json'], 'We are about to hire two engineers. What would you look for?\nWhat would you do first?\n');
    assert.equal(chat.code, 0, chat.stderr);
    const turns = chat.stdout.trim().split('\n').map((l) => JSON.parse(l) as { conversationId: string; evidence: Array<{ text: string }> });
    assert.equal(turns.length, 2);
    const id = turns[0]?.conversationId ?? '';
    assert.equal(turns[1]?.conversationId, id, 'the second turn continues the first');
    assert.ok(turns[1]?.evidence.some((e) => turns[0]?.evidence.some((f) => f.text === e.text)), 'answered in context');

    const human = await mindsim(['chat', mindId, '--model', 'mind-reasoner-standard'], 'How do you deal with burnout?\n');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /Conversation [0-9a-f-]{36}/);

    const [ls, lsHuman, show, showJson] = await Promise.all([
      mindsim(['simulations', 'ls', '--mind', mindId, '--json']),
      mindsim(['simulations', 'ls', '--mind', mindId, '--limit', '1']),
      mindsim(['simulations', 'show', id]),
      mindsim(['simulations', 'show', id, '--json']),
    ]);
    assert.equal(ls.code, 0, ls.stderr);
    const list = JSON.parse(ls.stdout) as { count: number; simulations: Array<{ id: string; messageCount: number }> };
    assert.equal(list.count, 2);
    assert.deepEqual(list.simulations.map((s) => s.messageCount), [2, 4]);
    assert.match(lsHuman.stdout, /2 msg {2}How do you deal with burnout\?/);
    assert.match(lsHuman.stdout, /2 in all: --offset 1 for more/);
    assert.match(show.stdout, /^We are about to hire two engineers\. What would you look for\?/);
    assert.equal(show.stdout.match(/^You {2}/gm)?.length, 2);
    assert.equal(show.stdout.match(/^Mind {1}/gm)?.length, 2);
    assert.equal(JSON.parse(showJson.stdout).messages.length, 4);

    const rm = await mindsim(['simulations', 'rm', id]);
    assert.equal(rm.code, 0, rm.stderr);
    const gone = await mindsim(['simulations', 'show', id]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /SIMULATION_NOT_FOUND/);
    assert.equal((await mindsim(['simulations', 'ls', '--limit', 'x'])).code, 2);
  });
});
