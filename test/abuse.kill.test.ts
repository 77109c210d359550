import assert from 'node:assert/strict';
import { it } from 'node:test';
import { killTrials } from '../testkit/kill-trials.ts';

/**
 * Kill trials (SIGKILL of a worker process in the middle of a snapshot, KILL_TRIALS times, 3 by
 * default; `npm run bench:kill` runs 20): every snapshot still completes, exactly once — one job,
 * done; each memory written once; a completed status never changes again. The whole service
 * killed at once (API and worker together) is test/crash.test.ts.
 */
const TRIALS = Number(process.env.KILL_TRIALS ?? 3);

it(`a worker SIGKILLed mid-processing ${TRIALS} times: every snapshot completes exactly once`, async (t) => {
  const report = await killTrials({ trials: TRIALS, log: (line) => t.diagnostic(line) });
  t.diagnostic(JSON.stringify(report));
  assert.deepEqual(report.problems, []);
  assert.ok(report.killedMidProcessing >= 1, 'at least one kill landed while a snapshot was processing');
  assert.ok(report.redeliveries >= report.killedMidProcessing, 'each interrupted job was delivered again');
});
