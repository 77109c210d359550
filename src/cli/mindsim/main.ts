import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import { consentCommands } from './consent-commands.ts';
import { correctionsCommands } from './corrections-commands.ts';
import { loginCommand } from './login-command.ts';
import { mcpCommand } from './mcp-command.ts';
import { mindsCommands } from './minds-commands.ts';
import { panelCommands } from './panel-commands.ts';
import { simulateCommands } from './simulate-commands.ts';
import { tagsCommands } from './tags-commands.ts';
import { simulationsCommands } from './simulations-commands.ts';
import { snapshotsCommands } from './snapshots-commands.ts';
import { EXIT, reportError, type OutputOptions } from './terminal.ts';
import { exportCommand } from './export-command.ts';
import { uploadCommand } from './upload-command.ts';
import { usageCommand } from './usage-command.ts';
import { auditCommand } from './audit-command.ts';

const pkg = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** `mindsim`: the Mind Simulation Service from a terminal, through the SDK. */
export function buildProgram(): Command {
  const program = new Command('mindsim')
    .description('Build minds from transcripts and simulate how the person would think, feel, say and act.')
    .version(pkg.version)
    .option('--json', 'print exactly one JSON object (the API response) on stdout')
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      '\nConfiguration: MINDSIM_BASE_URL and MINDSIM_API_KEY, or `mindsim login`.\nExit codes: 0 success, 1 API or network error, 2 usage error, 130 Ctrl-C while a command waits.',
    );
  const global = (): OutputOptions => program.opts<OutputOptions>();
  loginCommand(program, global);
  mindsCommands(program, global);
  tagsCommands(program, global);
  uploadCommand(program, global);
  snapshotsCommands(program, global);
  simulateCommands(program, global);
  usageCommand(program, global);
  exportCommand(program, global);
  auditCommand(program, global);
  simulationsCommands(program, global);
  correctionsCommands(program, global);
  panelCommands(program, global);
  consentCommands(program, global);
  mcpCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return ['commander.helpDisplayed', 'commander.version'].includes(err.code) ? EXIT.ok : EXIT.usage;
    }
    return reportError(err, { json: argv.includes('--json') });
  }
}

process.exitCode = await main(process.argv);
