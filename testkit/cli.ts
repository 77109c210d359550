import { execFile } from 'node:child_process';
import path from 'node:path';

/** What a `mindsim` process did. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const MINDSIM_BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');

/**
 * Runs `mindsim …args` as a process in `home` (its HOME and config folder there, nothing of the
 * developer's own), configured for the service by MINDSIM_BASE_URL and MINDSIM_API_KEY; `input`
 * is its standard input.
 */
export function runMindsim(home: string, service: { baseUrl: string; apiKey: string }, args: readonly string[], input = ''): Promise<CliRun> {
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), MINDSIM_BASE_URL: service.baseUrl, MINDSIM_API_KEY: service.apiKey };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [MINDSIM_BIN, ...args], { cwd: home, env }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
