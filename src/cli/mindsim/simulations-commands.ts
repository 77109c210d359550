import type { Command } from 'commander';
import type { SimulationDetail, SimulationRecord } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { wrap } from './simulation-view.ts';
import { bold, dim, printJson, UsageError, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

const count = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`Not a count: ${v}`);
  return n;
};

function row(s: SimulationRecord): string {
  const status = s.status === 'completed' ? '' : ` [${s.status}]`;
  return `${s.id}  ${s.createdAt.slice(0, 16).replace('T', ' ')}  ${String(s.messageCount).padStart(3)} msg  ${s.title}${status}`;
}

/** A conversation for a terminal: its header, then each message (the answers with their confidence). */
export function renderConversation({ simulation: s, messages }: SimulationDetail, width = process.stdout.columns || 100): string {
  const w = Math.max(40, Math.min(width, 120));
  const out = [
    bold(s.title),
    dim(`${s.id} · mind ${s.mindId} · ${s.model} · ${s.status} · ${s.createdAt}`),
  ];
  if (s.error) out.push(`error: ${s.error.code}: ${s.error.message}`);
  for (const m of messages) {
    const who = m.role === 'user' ? 'You' : 'Mind';
    const confidence = m.content.confidence !== undefined ? dim(` (confidence ${Math.round(m.content.confidence * 100)}%)`) : '';
    out.push('', `${bold(who.padEnd(5))}${wrap(m.content.text, w, 5)}${confidence}`);
  }
  if (s.status === 'queued' || s.status === 'running') out.push('', dim(`The last turn is ${s.status}.`));
  return out.join('\n');
}

/** `mindsim simulations ls|show|rm`: the stored conversations. */
export function simulationsCommands(program: Command, global: Global): void {
  const simulations = program.command('simulations').alias('sims').description('the stored simulations (conversations): list, show, delete');

  simulations
    .command('ls')
    .alias('list')
    .description('list simulations, newest first')
    .option('--mind <mindId>', "only this mind's simulations")
    .option('--limit <n>', 'at most this many', count, 50)
    .option('--offset <n>', 'skip this many', count, 0)
    .action(async (opts: { mind?: string; limit: number; offset: number }) => {
      const list = await clientFrom().simulations.list({ mindId: opts.mind, limit: opts.limit, offset: opts.offset });
      if (global().json) return printJson(list);
      if (!list.simulations.length) return console.log(dim('No simulations yet: mindsim simulate <mindId> "a scenario"'));
      for (const s of list.simulations) console.log(row(s));
      if (list.count > opts.offset + list.simulations.length) console.log(dim(`${list.count} in all: --offset ${opts.offset + list.simulations.length} for more`));
    });

  simulations
    .command('show <simulationId>')
    .description('a simulation with its messages, oldest first')
    .action(async (id: string) => {
      const detail = await clientFrom().simulations.get(id);
      if (global().json) return printJson(detail);
      console.log(renderConversation(detail));
    });

  simulations
    .command('rm <simulationId>')
    .alias('delete')
    .description('delete a simulation with its messages')
    .action(async (id: string) => {
      const deleted = await clientFrom().simulations.delete(id);
      if (global().json) return printJson(deleted);
      console.log(`Deleted simulation ${id}`);
    });
}
