import readline from 'node:readline';
import type { Command } from 'commander';
import { ApiError, type SnapshotStatus } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { renderSimulation } from './simulation-view.ts';
import { apiErrorJson, dim, printJson, reportError, type OutputOptions } from './terminal.ts';

const DEFAULT_MODEL = 'mind-reasoner-pro';

function renderStatus(s: SnapshotStatus): string {
  const lines = [`Snapshot ${s.id}: ${s.status}`, `  created    ${s.createdAt}`];
  if (s.startedAt) lines.push(`  started    ${s.startedAt}`);
  if (s.completedAt) lines.push(`  ended      ${s.completedAt}`);
  if (s.error) lines.push(`  error      ${s.error.code}: ${s.error.message}`);
  return lines.join('\n');
}

/** `mindsim status`, `mindsim simulate` and `mindsim chat`. */
export function simulateCommands(program: Command, global: () => OutputOptions): void {
  program
    .command('status <mindId> <snapshotId>')
    .description("a snapshot's status: pending, processing, completed or failed")
    .action(async (mindId: string, snapshotId: string) => {
      const s = await clientFrom().snapshots.status(mindId, snapshotId);
      if (global().json) return printJson(s);
      console.log(renderStatus(s));
    });

  program
    .command('simulate <mindId> <message>')
    .description('how the person would think, feel, say and act in a scenario, with the evidence')
    .option('--model <model>', 'mind-reasoner-pro or mind-reasoner-standard', DEFAULT_MODEL)
    .option('--conversation <id>', 'continue this conversation (the conversationId of an earlier answer)')
    .action(async (mindId: string, message: string, opts: { model: string; conversation?: string }) => {
      const sim = await clientFrom().simulate({ mindId, selectedSimulationModel: opts.model, scenario: { message }, conversationId: opts.conversation });
      if (global().json) return printJson(sim);
      console.log(renderSimulation(sim));
      console.log(dim(`\nConversation ${sim.conversationId}`));
    });

  program
    .command('chat <mindId>')
    .description('an interactive prompt: every line typed is a turn of one conversation (Ctrl-D or /exit to leave)')
    .option('--model <model>', 'mind-reasoner-pro or mind-reasoner-standard', DEFAULT_MODEL)
    .option('--conversation <id>', 'continue this conversation instead of starting a new one')
    .action(async (mindId: string, opts: { model: string; conversation?: string }) => {
      const client = clientFrom();
      const { name } = await client.minds.get(mindId);
      const json = Boolean(global().json);
      const interactive = Boolean(process.stdin.isTTY) && !json;
      const rl = readline.createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
      if (interactive) {
        console.log(dim(`Talking to ${name}. Each line is a scenario; /exit or Ctrl-D to leave.`));
        rl.setPrompt('you> ');
        rl.prompt();
      }
      // One conversation for the whole session: each turn is answered with the earlier ones as context.
      let conversationId = opts.conversation;
      for await (const raw of rl) {
        const message = raw.trim();
        if (message === '/exit' || message === '/quit') break;
        if (message) {
          try {
            const sim = await client.simulate({ mindId, selectedSimulationModel: opts.model, scenario: { message }, conversationId });
            if (json) process.stdout.write(`${JSON.stringify(sim)}\n`);
            else {
              console.log(`\n${renderSimulation(sim)}\n`);
              if (sim.conversationId !== conversationId) console.log(dim(`Conversation ${sim.conversationId} (mindsim simulations show ${sim.conversationId})\n`));
            }
            conversationId = sim.conversationId;
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            if (json) process.stdout.write(`${JSON.stringify(apiErrorJson(err))}\n`);
            else reportError(err, {});
          }
        }
        if (interactive) rl.prompt();
      }
      rl.close();
    });
}
