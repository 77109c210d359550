import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { runMindsim } from '../testkit/cli.ts';
import { startService, type Service } from '../testkit/service.ts';

/** `mindsim snapshots ls|show|rm` and `upload --mindset-date`, as processes, against the service in this process. */
let srv: Service;
let home: string;

before(async () => {
  srv = await startService();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-snaps-'));
  fs.writeFileSync(path.join(home, 'talk.vtt'), teamsVtt(sampleInterview()));
});
after(async () => {
  await srv?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const mindsim = (...args: string[]) => runMindsim(home, srv, args);

it('uploads with --mindset-date, lists, shows and deletes snapshots (--json prints the API objects)', async () => {
  const { mind } = await srv.sdk().minds.create('Sam Okafor');
  const bad = await mindsim('upload', mind.id, 'talk.vtt', '--mindset-date', '5/4/2023');
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /YYYY-MM-DD/);

  const up = await mindsim('--json', 'upload', mind.id, 'talk.vtt', '--mindset-date', '2023-05-04', '--wait');
  assert.equal(up.code, 0, up.stderr);
  const done = JSON.parse(up.stdout) as { id: string; status: string; mindsetDate: string };
  assert.deepEqual([done.status, done.mindsetDate], ['completed', '2023-05-04']);

  const [ls, lsJson, show, showJson] = await Promise.all([
    mindsim('snapshots', 'ls', mind.id),
    mindsim('--json', 'snapshots', 'ls', mind.id),
    mindsim('snapshots', 'show', mind.id, done.id, '--transcript'),
    mindsim('--json', 'snapshots', 'show', mind.id, done.id),
  ]);
  assert.match(ls.stdout, new RegExp(`^${done.id}  2023-05-04  completed`));
  assert.deepEqual(JSON.parse(lsJson.stdout).snapshots.map((s: { id: string }) => s.id), [done.id]);
  assert.equal(JSON.parse(lsJson.stdout).count, 1);
  assert.match(show.stdout, /conversation {2}2023-05-04/);
  assert.match(show.stdout, /Certainty vs hedging/);
  assert.match(show.stdout, /\* Sam Okafor: I always start with a long run/);
  const details = JSON.parse(showJson.stdout) as { id: string; transcripts: unknown; psychometrics: { linguisticMarkers: unknown[] } };
  assert.deepEqual([details.id, details.transcripts, details.psychometrics.linguisticMarkers.length], [done.id, null, 5]);

  const rm = await mindsim('--json', 'snapshots', 'rm', mind.id, done.id);
  assert.equal(rm.code, 0, rm.stderr);
  assert.deepEqual(JSON.parse(rm.stdout), { message: 'Snapshot deleted successfully', snapshotId: done.id });
  const again = await mindsim('snapshots', 'rm', mind.id, done.id);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /SNAPSHOT_NOT_FOUND, HTTP 404/);
  assert.match((await mindsim('snapshots', 'ls', mind.id)).stdout, /No snapshots yet/);
});
