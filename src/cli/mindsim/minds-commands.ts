import type { Command } from 'commander';
import type { Mind, RedactionMode } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { UsageError, dim, printJson, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

const REDACTION_MODES: readonly RedactionMode[] = ['off', 'outbound', 'stored'];
const REDACTION_HELP = 'off, outbound (never sent to the LLM provider) or stored (not stored either)';
function redactionMode(value: string): RedactionMode {
  if (!(REDACTION_MODES as readonly string[]).includes(value)) throw new UsageError(`--redaction takes ${REDACTION_MODES.join(', ')} (not ${value})`);
  return value as RedactionMode;
}

const collect = (value: string, previous: string[]) => [...previous, value];
const tagList = (m: Mind) => (m.tags.length ? `  [${m.tags.map((t) => t.name).join(', ')}]` : '');
const printMinds = (minds: Mind[]) => {
  for (const m of minds) console.log(`${m.id}  ${m.createdAt.slice(0, 10)}  ${m.name}${tagList(m)}`);
};

/** `mindsim minds create|update|ls|search|tag|rm`. */
export function mindsCommands(program: Command, global: Global): void {
  const minds = program.command('minds').description('create, list, search, tag and delete minds');

  minds
    .command('create <name>')
    .description('create a mind (and its Default digital twin)')
    .option('--tag <name>', 'a tag for the mind (repeatable; missing tags are made)', collect, [])
    .option('--redaction <mode>', `personal data redaction: ${REDACTION_HELP} (default: the service's REDACTION)`)
    .action(async (name: string, opts: { tag: string[]; redaction?: string }) => {
      const redaction = opts.redaction === undefined ? undefined : redactionMode(opts.redaction);
      const created = await clientFrom().minds.create(opts.tag.length || redaction ? { name, ...(opts.tag.length ? { tags: opts.tag } : {}), ...(redaction ? { redaction } : {}) } : name);
      if (global().json) return printJson(created);
      console.log(`Created mind ${created.mind.id} "${created.mind.name}" (digital twin ${created.digitalTwin.id}, redaction ${created.mind.redaction})`);
    });

  minds
    .command('update <mindId>')
    .description('change a mind: its name, its redaction (applies to snapshots processed afterwards)')
    .option('--name <name>', 'a new name')
    .option('--redaction <mode>', `personal data redaction: ${REDACTION_HELP}`)
    .action(async (mindId: string, opts: { name?: string; redaction?: string }) => {
      if (opts.name === undefined && opts.redaction === undefined) throw new UsageError('give --name or --redaction');
      const changes = { ...(opts.name !== undefined ? { name: opts.name } : {}), ...(opts.redaction !== undefined ? { redaction: redactionMode(opts.redaction) } : {}) };
      const updated = await clientFrom().minds.put(mindId, changes);
      if (global().json) return printJson(updated);
      console.log(`Updated mind ${updated.mind.id} "${updated.mind.name}" (redaction ${updated.mind.redaction})`);
    });

  minds
    .command('ls')
    .alias('list')
    .description('list minds, newest first (every page), as {"minds": [...]} with --json')
    .option('--limit <n>', 'page size', (v) => Number.parseInt(v, 10), 100)
    .option('--tag <name>', 'only minds carrying this tag (repeatable: any of them)', collect, [])
    .action(async (opts: { limit: number; tag: string[] }) => {
      const all: Mind[] = await clientFrom().minds.list({ limit: opts.limit, tags: opts.tag }).all();
      if (global().json) return printJson({ minds: all });
      if (!all.length) return console.log(dim(opts.tag.length ? 'No mind carries these tags.' : 'No minds yet: mindsim minds create "Full Name"'));
      printMinds(all);
    });

  minds
    .command('search <query>')
    .description('minds whose name, email or a tag name contains the query (case-insensitive)')
    .option('--limit <n>', 'at most this many', (v) => Number.parseInt(v, 10), 50)
    .action(async (query: string, opts: { limit: number }) => {
      const found = await clientFrom().minds.search(query, { limit: opts.limit });
      if (global().json) return printJson(found);
      if (!found.minds.length) return console.log(dim(`No mind matches "${query}".`));
      printMinds(found.minds);
      if (found.count > found.minds.length) console.log(dim(`…and ${found.count - found.minds.length} more (--limit)`));
    });

  minds
    .command('tag <mindId> [names...]')
    .description('set the tags of a mind: exactly these names (missing tags are made); --clear removes them all')
    .option('--clear', 'remove every tag of the mind')
    .action(async (mindId: string, names: string[], opts: { clear?: boolean }) => {
      if (!names.length && !opts.clear) throw new UsageError('give the tag names, or --clear to remove every tag');
      if (names.length && opts.clear) throw new UsageError('give either tag names or --clear');
      const { mind } = await clientFrom().minds.setTags(mindId, names);
      if (global().json) return printJson({ mind });
      console.log(mind.tags.length ? `Tags of ${mind.name}: ${mind.tags.map((t) => t.name).join(', ')}` : `${mind.name} has no tags now`);
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
