import type { Command } from 'commander';
import type { Mind } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { dim, printJson, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

/** `mindsim minds create|ls|rm`. */
export function mindsCommands(program: Command, global: Global): void {
  const minds = program.command('minds').description('create, list and delete minds');

  minds
    .command('create <name>')
    .description('create a mind (and its Default digital twin)')
    .action(async (name: string) => {
      const created = await clientFrom().minds.create(name);
      if (global().json) return printJson(created);
      console.log(`Created mind ${created.mind.id} "${created.mind.name}" (digital twin ${created.digitalTwin.id})`);
    });

  minds
    .command('ls')
    .alias('list')
    .description('list minds, newest first (every page)')
    .option('--limit <n>', 'page size', (v) => Number.parseInt(v, 10), 100)
    .action(async (opts: { limit: number }) => {
      const all: Mind[] = await clientFrom().minds.list({ limit: opts.limit }).all();
      if (global().json) return printJson(all);
      if (!all.length) return console.log(dim('No minds yet: mindsim minds create "Full Name"'));
      for (const m of all) console.log(`${m.id}  ${m.createdAt.slice(0, 10)}  ${m.name}`);
    });

  minds
    .command('rm <mindId>')
    .alias('delete')
    .description('delete a mind with its twins, files, snapshots and memories')
    .action(async (mindId: string) => {
      await clientFrom().minds.delete(mindId);
      if (global().json) return printJson({ deleted: true, mindId });
      console.log(`Deleted mind ${mindId}`);
    });
}
