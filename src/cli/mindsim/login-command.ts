import type { Command } from 'commander';
import { MindsimClient } from '@mindsim/sdk';
import { ask as askOnTerminal } from '../prompt.ts';
import { configPath, saveConfig } from './config.ts';
import { UsageError, printJson, type OutputOptions } from './terminal.ts';

const ask = (question: string, secret = false) =>
  askOnTerminal(question, secret, () => new UsageError(`Missing ${question.replace(/:\s*$/, '')}: pass it as an option.`));

/** `mindsim login`: checks the key against the service, then stores it for the user only. */
export function loginCommand(program: Command, global: () => OutputOptions): void {
  program
    .command('login')
    .description(`store the service URL and API key in ${configPath()} (mode 0600)`)
    .option('--base-url <url>', 'the service address, e.g. http://127.0.0.1:8080')
    .option('--api-key <key>', 'an API key (msk_…); prompted for when omitted')
    .action(async (opts: { baseUrl?: string; apiKey?: string }) => {
      const baseUrl = opts.baseUrl ?? process.env.MINDSIM_BASE_URL ?? (await ask('Service URL: '));
      const apiKey = opts.apiKey ?? process.env.MINDSIM_API_KEY ?? (await ask('API key: ', true));
      if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`Not an http(s) URL: ${baseUrl}`);
      await new MindsimClient({ baseUrl, apiKey, maxRetries: 1 }).models.list();
      const file = saveConfig({ baseUrl, apiKey });
      if (global().json) return printJson({ configPath: file, baseUrl });
      console.log(`Logged in to ${baseUrl}; saved to ${file}`);
    });
}
