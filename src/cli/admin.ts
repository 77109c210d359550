import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import type { Context } from '../composition.ts';
import { loadConfig, type Config } from '../config.ts';
import { DomainError } from '../kernel/errors.ts';
import { backup, BackupError, restore } from './backup.ts';
import { ask, readStdin } from './prompt.ts';

/**
 * Operator CLI: `npm run --silent admin -- <command> [--flags]`. Prints exactly one JSON object
 * on success; a message on stderr and a non-zero exit code on error.
 */
const USAGE = `Usage: npm run --silent admin -- <command> [options]
  create-account --email E --tier standard|pro   -> {accountId, apiKey}
  create-api-key --account ID [--name N]         -> {apiKey, prefix}
  revoke-api-key --prefix P                      -> {revoked, prefix}
  set-tier --account ID --tier standard|pro      -> {accountId, tier}
  create-webhook-credentials --account ID        -> {url, username, password}
  set-password --account ID                      -> {accountId, email}
      (the password is read from stdin, or asked for without echo on a terminal)
  erase-mind --mind ID                           -> {erased, mindId, accountId, snapshots}
  backup --out FILE                              -> {out, bytes, minds, snapshots, blobs, …}
      (while the service runs; SQLite and DATA_DIR/blobs only)
  restore --from FILE                            -> {dataDir, minds, snapshots, blobs, …}
      (into an empty or new DATA_DIR, with the service stopped)`;

class UsageError extends Error {}

const Tier = z.enum(['standard', 'pro']);

function need(values: Record<string, string | undefined>, name: string): string {
  const v = values[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

function tierOf(values: Record<string, string | undefined>): 'standard' | 'pro' {
  const t = Tier.safeParse(need(values, 'tier'));
  if (!t.success) throw new UsageError('--tier must be standard or pro');
  return t.data;
}

const commands: Record<string, (ctx: Context, v: Record<string, string | undefined>) => Promise<object>> = {
  'create-account': async (ctx, v) => {
    const { accountId, apiKey } = await ctx.services.accounts.createAccount(need(v, 'email'), tierOf(v));
    return { accountId, apiKey };
  },
  'create-api-key': (ctx, v) => ctx.services.accounts.createApiKey(need(v, 'account'), v.name ?? null),
  'revoke-api-key': async (ctx, v) => {
    const prefix = need(v, 'prefix');
    await ctx.services.accounts.revokeApiKey(prefix);
    return { revoked: true, prefix };
  },
  'set-tier': async (ctx, v) => {
    const accountId = need(v, 'account');
    const tier = tierOf(v);
    await ctx.services.accounts.setTier(accountId, tier);
    return { accountId, tier };
  },
  'create-webhook-credentials': (ctx, v) => ctx.services.webhooks.createCredentials(need(v, 'account')),
  'set-password': async (ctx, v) => {
    const accountId = need(v, 'account');
    const password = process.stdin.isTTY
      ? await ask('New password: ', true, () => new UsageError('no terminal'))
      : await readStdin();
    const account = await ctx.services.logins.setPassword(accountId, password);
    return { accountId: account.id, email: account.email };
  },
  'erase-mind': async (ctx, v) => {
    const erased = await ctx.services.minds.eraseAnyAccount(need(v, 'mind'));
    // The account's access log keeps that the operator erased it (ids only, like every row).
    await ctx.services.accessLog.record([{ accountId: erased.accountId, actor: 'operator', action: 'mind.delete', mindId: erased.mindId }]);
    // The erasure scrubbed the database's files (Store.scrub): on SQLite the mind's text is in neither the file nor its WAL.
    return { erased: true, ...erased };
  },
};

/** Commands on the files themselves: they never open the service (nor create a database). */
const fileCommands: Record<string, (config: Config, v: Record<string, string | undefined>) => Promise<object>> = {
  backup: (config, v) => backup(config, need(v, 'out')),
  restore: (config, v) => restore(config, need(v, 'from')),
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const handler = command ? commands[command] : undefined;
  const fileHandler = command ? fileCommands[command] : undefined;
  if (!handler && !fileHandler) {
    process.stderr.write(`${command ? `Unknown command: ${command}\n` : ''}${USAGE}\n`);
    return 2;
  }
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: Object.fromEntries(
        ['email', 'tier', 'account', 'prefix', 'name', 'mind', 'out', 'from'].map((o) => [o, { type: 'string' as const }]),
      ),
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  let ctx: Context | null = null;
  try {
    let result: object;
    if (handler) {
      // Loaded only for the commands that open the service: backup and restore start faster without it.
      ctx = await (await import('../composition.ts')).compose(config, undefined, pino({ level: 'silent' }));
      result = await handler(ctx, values);
    } else {
      result = await (fileHandler as NonNullable<typeof fileHandler>)(config, values);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`${err instanceof DomainError || err instanceof BackupError ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

process.exitCode = await run(process.argv.slice(2));
