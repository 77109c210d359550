/**
 * Erasure leaves nothing in the data folder's files (issue 30, item 4): after each path that erases
 * a person's words — a withdrawal of consent, a mind's deletion, a snapshot's deletion and the
 * retention sweep — a word planted in their transcript (and in a correction of the mind, issue 32)
 * is in no file under DATA_DIR, byte for byte: not in `mindsim.sqlite` (secure_delete zeroes what
 * is deleted), not in its `-wal` (emptied by a TRUNCATE checkpoint once the erasure commits) or
 * `-shm`, not in a blob or the journal of answered turns. Before each erasure the word is there
 * (the scan sees it), and a mind that is kept keeps its own. The service runs in this process
 * with a clock the retention test moves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { RETENTION_SWEEP } from '../src/domain/retention.ts';
import { sql } from '../src/store/db/kysely.ts';
import { filesHolding, sqliteRowsNaming } from '../testkit/erasure.ts';
import { sampleInterview, teamsVtt, zoomVtt, type Turn } from '../testkit/fixtures.ts';
import { blobOf, statusOf, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { testClock } from '../testkit/clock.ts';
import { waitUntil } from '../testkit/wait.ts';

const DAY = 24 * 3600_000;
const clock = testClock();

let srv: Service;
let sdk: TestSdk;

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', WORKER_POLL_MS: '20', RETENTION_INTERVAL_MS: String(3600_000) }, { rt: clock });
  sdk = srv.sdk();
});
after(() => srv?.close());

/** Waits until `check` holds (a state, not a time). */
const until = (what: string, check: () => Promise<boolean>) => waitUntil(check, { what, timeoutMs: 60_000 });

const withWord = (word: string): Turn[] => [
  ...sampleInterview(),
  { speaker: 'Dana Reyes', text: 'Is there a word only you use?' },
  { speaker: 'Sam Okafor', text: `My secret word is ${word}, and I say ${word} before every run.` },
];

/** A snapshot of the mind from this transcript, completed. */
async function snapshot(mindId: string, vtt: string): Promise<string> {
  const s = await sdk.snapshots.create(mindId, { file: blobOf(vtt), fileName: 't.vtt' });
  assert.equal((await waitFor(sdk, mindId, s.mindAssessmentId)).status, 'completed');
  return s.mindAssessmentId;
}

/** A correction of the mind (issue 32) whose answer says `word`, through the API. */
async function correct(mindId: string, word: string): Promise<void> {
  const r = await fetch(`${srv.api}/minds/${mindId}/corrections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scenario: 'What do you say before a race?', answer: `Before a race I say ${word} three times.`, note: `corrected: ${word}` }),
  });
  assert.equal(r.status, 201, await r.text());
}

/**
 * A mind whose person says `word`, in a snapshot (and `plain` more without it): simulated (the
 * scenario asks for the word), profiled, and asked in a panel whose open answers quote it; with
 * `corrected`, also in a correction of the mind (which a snapshot's deletion leaves).
 */
async function populate(name: string, word: string, plain = 0, corrected = true): Promise<{ mindId: string; snapshotId: string }> {
  const { mind } = await sdk.minds.create(name);
  const snapshotId = await snapshot(mind.id, teamsVtt(withWord(word)));
  for (let i = 0; i < plain; i++) await snapshot(mind.id, zoomVtt(sampleInterview()));
  await sdk.simulate({ mindId: mind.id, scenario: { message: 'What is your secret word, the one you say before a run?' } });
  await sdk.minds.profile(mind.id);
  const { panel } = await sdk.panels.create({ mindIds: [mind.id], questions: [{ id: 'word', text: 'Which word do you say before every run?', type: 'open' }] });
  await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 60_000 });
  if (corrected) await correct(mind.id, word);
  return { mindId: mind.id, snapshotId };
}

/**
 * The files holding the word before and after `erase`; the word must be in the database file and
 * its WAL before (a PASSIVE checkpoint copies the pages into the file and leaves the log as it is,
 * as SQLite's own automatic checkpoints do) and in no file after.
 */
async function erasing(t: TestContext, word: string, erase: () => Promise<void>): Promise<void> {
  await sql`pragma wal_checkpoint(passive)`.execute(srv.ctx.store.db);
  const before = filesHolding(srv.dataDir, word);
  assert.ok(before['mindsim.sqlite'] && before['mindsim.sqlite-wal'], `the word is in the database file and its WAL before the erasure: ${JSON.stringify(before)}`);
  await erase();
  const after = filesHolding(srv.dataDir, word);
  t.diagnostic(`${word}: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
  assert.deepEqual(after, {}, `no file of the data folder holds the word (rows holding it: ${sqliteRowsNaming(srv.dataDir, [word]).join(', ') || 'none'})`);
}

describe('erasure leaves no byte of the words in the data folder', { concurrency: false }, () => {
  const KEPT = 'Marmaladequist';
  before(async () => {
    await populate('Kept Person', KEPT);
  });

  it('after a withdrawal of consent', async (t) => {
    const { mindId } = await populate('Withdrawn Person', 'Quorbelanthe');
    await erasing(t, 'Quorbelanthe', async () => {
      await sdk.minds.withdrawConsent(mindId);
      assert.equal(sdk.last?.status, 200);
    });
    assert.equal(await statusOf(sdk.minds.get(mindId)), 410);
  });

  it("after a mind's deletion", async (t) => {
    const { mindId } = await populate('Deleted Person', 'Vextrinomal');
    await erasing(t, 'Vextrinomal', async () => {
      await sdk.minds.delete(mindId);
      assert.equal(sdk.last?.status, 204);
    });
  });

  it("after a snapshot's deletion (the mind and its other snapshot kept)", async (t) => {
    const { mindId, snapshotId } = await populate('Half Person', 'Plithemorax', 1, false);
    await erasing(t, 'Plithemorax', async () => {
      await sdk.snapshots.delete(mindId, snapshotId);
      assert.equal(sdk.last?.status, 200);
    });
    assert.equal((await sdk.snapshots.list(mindId).first()).snapshots.length, 1, 'the other snapshot is kept');
  });

  it('a kept mind keeps its words', () => {
    assert.notDeepEqual(filesHolding(srv.dataDir, KEPT), {});
  });

  it('after the retention sweep', async (t) => {
    await sdk.account.setPrivacy({ retentionDays: 30 });
    const { mindId, snapshotId } = await populate('Retained Person', 'Grunwaltheby');
    const sweeps = async () => (await srv.ctx.store.db.selectFrom('jobs').select('state').where('kind', '=', RETENTION_SWEEP).where('state', '=', 'done').execute()).length;
    const done = await sweeps();
    await erasing(t, 'Grunwaltheby', async () => {
      clock.advance(31 * DAY);
      await until('the old snapshot erased', async () => (await statusOf(sdk.snapshots.status(mindId, snapshotId))) === 404);
      await until('the sweep done', async () => (await sweeps()) > done);
    });
    assert.equal(await statusOf(sdk.minds.get(mindId)), 200, 'the mind itself is kept');
  });
});
