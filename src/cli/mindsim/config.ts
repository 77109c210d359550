import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MindsimClient } from '@mindsim/sdk';
import { UsageError } from './terminal.ts';

export interface CliConfig {
  baseUrl: string;
  apiKey: string;
}

/** `$XDG_CONFIG_HOME/mindsim/config.json`, else `~/.config/mindsim/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(root, 'mindsim', 'config.json');
}

function readConfigFile(file: string): Partial<CliConfig> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CliConfig>;
    return { baseUrl: parsed.baseUrl, apiKey: parsed.apiKey };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

/** MINDSIM_BASE_URL and MINDSIM_API_KEY win over the file written by `mindsim login`. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  const file = readConfigFile(configPath(env));
  const baseUrl = env.MINDSIM_BASE_URL || file.baseUrl;
  const apiKey = env.MINDSIM_API_KEY || file.apiKey;
  if (!baseUrl || !apiKey) {
    throw new UsageError('Not configured: set MINDSIM_BASE_URL and MINDSIM_API_KEY, or run `mindsim login`.');
  }
  return { baseUrl, apiKey };
}

/** Writes the config readable by its owner only (0600, in a 0700 folder). */
export function saveConfig(cfg: CliConfig, env: NodeJS.ProcessEnv = process.env): string {
  const file = configPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(cfg, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

export function clientFrom(cfg: CliConfig = loadConfig()): MindsimClient {
  return new MindsimClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey });
}
