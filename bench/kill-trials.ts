import { killTrials } from '../testkit/kill-trials.ts';

/**
 * `npm run bench:kill`: many kill trials (KILL_TRIALS, default 20; KILL_SNAPSHOTS, default 10):
 * worker processes SIGKILLed at random moments while they process snapshots, then a last worker
 * finishes the queue. Prints the report; exits 1 unless every snapshot completed exactly once.
 */
const trials = Number(process.env.KILL_TRIALS ?? 20);
const snapshots = Number(process.env.KILL_SNAPSHOTS ?? 10);
const report = await killTrials({
  trials,
  snapshots,
  copies: Number(process.env.KILL_COPIES ?? 150),
  maxKillDelayMs: 1000,
  seed: Number(process.env.KILL_SEED ?? 1),
  log: (line) => console.log(line),
});
console.log(
  `\n| trials | snapshots | killed mid-processing | redeliveries | seconds | result |\n|---:|---:|---:|---:|---:|---|\n` +
    `| ${report.trials} | ${report.snapshots} | ${report.killedMidProcessing} | ${report.redeliveries} | ${report.seconds.toFixed(0)} | ${report.problems.length ? 'FAILED' : 'every snapshot completed exactly once'} |`,
);
for (const p of report.problems) console.log(`  - ${p}`);
process.exit(report.problems.length ? 1 : 0);
