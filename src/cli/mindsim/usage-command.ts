import type { Command } from 'commander';
import type { Usage } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { UsageError, bold, printJson, type OutputOptions } from './terminal.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (flag: string) => (v: string) => {
  if (!DAY.test(v)) throw new UsageError(`${flag} takes a UTC day as YYYY-MM-DD, not "${v}".`);
  return v;
};
const ms = (v: number) => `${v.toFixed(2)} ms`;

function renderUsage(u: Usage): string {
  const rows: Array<[string, string | number]> = [
    ['Requests', `${u.totalCount} (${u.successCount} succeeded, ${u.errorCount} failed)`],
    ['Latency', `average ${ms(u.averageLatency)}, min ${ms(u.minLatency)}, max ${ms(u.maxLatency)}`],
    ['Percentiles', `p50 ${ms(u.medianLatency)}, p90 ${ms(u.p90Latency)}, p95 ${ms(u.p95Latency)}, p99 ${ms(u.p99Latency)}, p99.9 ${ms(u.p999Latency)}`],
    ['Simulations', `${u.numberOfSimulations} (${u.numberOfSimulatedTwins} distinct twins)`],
    ['Snapshots', `${u.numberOfSnapshotsCreated} created (${u.numberOfSnapshotsTotal} in the account)`],
    ['Psychometrics', u.numberOfPsychometricsRequests],
  ];
  return [bold(`Usage of this API key, ${u.from} to ${u.to} (UTC)`), ...rows.map(([k, v]) => `  ${k.padEnd(14)}${v}`)].join('\n');
}

/** `mindsim usage`: the API key's usage (GET /usage). */
export function usageCommand(program: Command, global: () => OutputOptions): void {
  program
    .command('usage')
    .description("this API key's requests, latency percentiles, simulations and snapshots over UTC days")
    .option('--from <day>', 'first UTC day, YYYY-MM-DD (default: 29 days before --to)', day('--from'))
    .option('--to <day>', 'last UTC day, YYYY-MM-DD (default: today)', day('--to'))
    .action(async (opts: { from?: string; to?: string }) => {
      const usage = await clientFrom().usage.get({ from: opts.from, to: opts.to });
      if (global().json) return printJson(usage);
      console.log(renderUsage(usage));
    });
}
