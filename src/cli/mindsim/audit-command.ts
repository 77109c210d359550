import type { Command } from 'commander';
import type { AuditEntry } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { UsageError, bold, dim, printJson, type OutputOptions } from './terminal.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

const mindId = (v: string) => {
  if (!UUID.test(v)) throw new UsageError(`--mind takes a mind id (a UUID), not "${v}".`);
  return v;
};
const time = (flag: string) => (v: string) => {
  if (!TIME.test(v) || Number.isNaN(Date.parse(v))) throw new UsageError(`${flag} takes an ISO date (YYYY-MM-DD, UTC) or date-time, not "${v}".`);
  return v;
};
const rows = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new UsageError(`--limit takes a whole number from 1 to 100000, not "${v}".`);
  return n;
};

/** One row: when, what, which mind (and resource), who, from where. */
const line = (e: AuditEntry) =>
  `${e.at}  ${e.action.padEnd(20)} ${e.mindId ?? dim('(account)')}${e.resourceId ? dim(` → ${e.resourceId}`) : ''}  ${e.actor}${e.ip ? dim(` from ${e.ip}`) : ''}`;

/** `mindsim audit`: the account's access log (GET /audit), newest first. */
export function auditCommand(program: Command, global: () => OutputOptions): void {
  program
    .command('audit')
    .description("the account's access log: who read, changed or deleted what of a mind, and when (newest first)")
    .option('--mind <mindId>', "only this mind's rows (kept after the mind is deleted)", mindId)
    .option('--from <time>', 'from this ISO date (UTC) or date-time, included', time('--from'))
    .option('--to <time>', 'until this ISO date (UTC, the whole day) or date-time, included', time('--to'))
    .option('--limit <n>', 'at most this many rows', rows, 100)
    .action(async (opts: { mind?: string; from?: string; to?: string; limit: number }) => {
      const entries: AuditEntry[] = [];
      const list = clientFrom().audit.list({ mindId: opts.mind, from: opts.from, to: opts.to, limit: Math.min(opts.limit, 200) });
      let more = false;
      for await (const e of list) {
        if (entries.length === opts.limit) {
          more = true;
          break;
        }
        entries.push(e);
      }
      if (global().json) return printJson({ entries });
      if (entries.length === 0) return console.log(dim('No access recorded for this selection.'));
      console.log(bold(`${entries.length} access${entries.length === 1 ? '' : 'es'}, newest first`));
      for (const e of entries) console.log(line(e));
      if (more) console.log(dim(`More rows: --limit ${opts.limit * 2}, or narrow with --from/--to.`));
    });
}
