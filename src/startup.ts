/**
 * What a start checks before it makes anything (issue 30, item 7): that the data folder can be
 * written and that the port is free, so a first start that cannot serve stops before it creates
 * the owner account whose key it prints only once. A failure says which setting to change.
 * After the start, the line for an owner whose key this start cannot show: how to make a new one.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** A start that cannot go on, with a message for the operator (printed as it is, no stack). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

const NOTHING_MADE = 'Nothing was created; start again once it is fixed.';

/** The data folder exists (made if missing) and a file can be written and removed in it. */
export async function checkDataDir(dir: string): Promise<void> {
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(probe, '');
    await fs.rm(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(
      `The data folder ${dir} cannot be written (${code}). Set DATA_DIR to a folder this user can write, or fix its permissions. ${NOTHING_MADE}`,
    );
  }
}

/** The operator's message for a failed listen on `port` at `host`, naming the setting to change. */
export function listenFailure(err: unknown, port: number, host: string): StartupError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(
        `Port ${port} on ${host} is already in use (another mindsim, or another program). ` +
          `Stop what listens there, or set PORT to a free port, e.g. PORT=${port === 65535 ? 8081 : port + 1} npm start.`,
      );
    case 'EACCES':
      return new StartupError(`This user may not listen on port ${port} (ports below 1024 need privileges). Set PORT to a port from 1024 up, e.g. PORT=8080.`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`HOST=${host} is not an address of this machine (${code}). Set HOST: 127.0.0.1 for this machine only, 0.0.0.0 for every interface.`);
    default:
      return new StartupError(`The service could not listen on ${host}:${port}: ${(err as Error | null)?.message ?? String(err)}.`);
  }
}

/** The port can be listened on now (port 0, any free port, always can); else the StartupError that says what to set. */
export async function checkPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err) => reject(listenFailure(err, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Before anything is opened or made: the port (for a process serving the API), then the data folder. */
export async function preflight(settings: { dataDir: string; port: number; host: string; api: boolean }): Promise<void> {
  if (settings.api) {
    try {
      await checkPort(settings.port, settings.host);
    } catch (err) {
      if (err instanceof StartupError) throw new StartupError(`${err.message} ${NOTHING_MADE}`);
      throw err;
    }
  }
  await checkDataDir(settings.dataDir);
}

/** The owner's key as the first start printed it (the key itself is printed here only). */
export function ownerCreatedText(owner: { accountId: string; apiKey: string; email: string }, publicUrl: string): string {
  return (
    `\nCreated the owner account ${owner.accountId}.\nIts API key (shown only now, store it safely):\n\n  ${owner.apiKey}\n\n` +
    `To use the dashboard at ${publicUrl}/ as ${owner.email}, set a password first:\n` +
    `  npm run --silent admin -- set-password --account ${owner.accountId}\n\n`
  );
}

/** The owner account's address (as AccountService.ensureOwner makes it). */
export const OWNER_EMAIL = 'owner@localhost.localdomain';

/** What the notice below needs to know of the accounts (the store's accounts and keys). */
export interface OwnerKeys {
  accountByEmail(email: string): Promise<{ id: string } | undefined>;
  activeKeys(accountId: string): Promise<ReadonlyArray<{ last_used_at: string | null }>>;
}

/**
 * The owner made by an earlier start when none of its active keys was ever used (the key the
 * first start printed may be lost: a start that stopped right after it, a scrolled-away
 * terminal); null when there is no such owner.
 */
export async function ownerWithUnusedKey(keys: OwnerKeys): Promise<string | null> {
  const owner = await keys.accountByEmail(OWNER_EMAIL);
  if (!owner) return null;
  const active = await keys.activeKeys(owner.id);
  return active.some((k) => k.last_used_at !== null) ? null : owner.id;
}

/** For that owner: its key cannot be shown again (only a hash of it is kept), so how to make a new one. Never a key. */
export function ownerKeyNotice(accountId: string): string {
  return (
    `\nThe owner account (${accountId}) was created by an earlier start, and its API key was shown only then (only a hash of it is kept).\n` +
    `If you do not have that key, make a new one:\n` +
    `  npm run --silent admin -- create-api-key --account ${accountId}\n\n`
  );
}

/** A listen that failed after this start created the owner: the key was printed above, keep it. */
export function withOwnerKept(err: StartupError, ownerCreated: { accountId: string } | null): StartupError {
  if (!ownerCreated) return err;
  return new StartupError(`${err.message}\nThe owner account ${ownerCreated.accountId} was created and its API key printed above: keep it, the next start will not show it.`);
}
