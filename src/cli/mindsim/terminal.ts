import { STATUS_CODES } from 'node:http';
import { styleText } from 'node:util';
import { ApiError } from '@mindsim/sdk';

/** Wrong arguments, missing files or configuration: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT = { ok: 0, api: 1, usage: 2 } as const;

export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Bold on a terminal, plain text when piped. */
export const bold = (s: string, stream: NodeJS.WriteStream = process.stdout) => (stream.isTTY ? styleText('bold', s) : s);
export const dim = (s: string, stream: NodeJS.WriteStream = process.stdout) => (stream.isTTY ? styleText('dim', s) : s);

/** An API error as `--json` prints it: the API's own error body, with the HTTP status. */
export const apiErrorJson = (err: ApiError) => ({
  error: STATUS_CODES[err.status] ?? 'Error',
  message: err.message,
  code: err.code,
  details: err.details ?? {},
  status: err.status,
  requestId: err.requestId,
});

/** Prints an error the way the CLI reports it and answers the exit code. */
export function reportError(err: unknown, opts: OutputOptions): number {
  if (err instanceof UsageError) {
    process.stderr.write(`mindsim: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof ApiError) {
    if (opts.json) {
      printJson(apiErrorJson(err));
    }
    const reason = typeof err.details?.reason === 'string' ? `: ${err.details.reason}` : '';
    const ref = [`${err.code}${reason}`, `HTTP ${err.status}`, err.requestId ? `request ${err.requestId}` : ''].filter(Boolean).join(', ');
    process.stderr.write(`mindsim: ${err.message} (${ref})\n`);
    return EXIT.api;
  }
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const message = cause?.message ? `${(err as Error).message}: ${cause.message}` : ((err as Error)?.message ?? String(err));
  if (opts.json) printJson({ error: 'Client Error', message, code: (cause?.code ?? 'client_error').toUpperCase() });
  process.stderr.write(`mindsim: ${message}\n`);
  return EXIT.api;
}

/** One line on stderr rewritten in place (a live status); nothing is drawn when stderr is not a TTY. */
export class StatusLine {
  private drawn = false;
  private readonly stream: NodeJS.WriteStream;
  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.stream = stream;
  }

  get enabled(): boolean {
    return Boolean(this.stream.isTTY);
  }

  update(text: string): void {
    if (!this.enabled) return;
    this.stream.write(`\r\x1b[2K${text}`);
    this.drawn = true;
  }

  /** Removes the line, leaving the cursor at the start of an empty line. */
  clear(): void {
    if (this.enabled && this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}
