import pino from 'pino';
import { buildApp, httpSettings } from './http/app.ts';
import { compose } from './composition.ts';
import { webPages } from './web/plugin.ts';
import { loadConfig } from './config.ts';
import { logDestination, logFormat } from './logging.ts';
import { listenFailure, ownerCreatedText, ownerKeyNotice, ownerWithUnusedKey, preflight, withOwnerKept } from './startup.ts';

/** Composition root entry: the API (with an in-process worker by default), or `--worker-only`. */
async function main(): Promise<void> {
  const workerOnly = process.argv.includes('--worker-only');
  const config = loadConfig();
  // Before anything is opened or made (the owner account's key is printed once): the port is free, the data folder writable.
  await preflight({ dataDir: config.dataDir, port: config.port, host: config.host, api: !workerOnly });
  // One destination for the service's own lines and Fastify's request lines.
  const logStream = await logDestination(logFormat(config.logFormat));
  const log = logStream ? pino({ level: config.logLevel }, logStream) : pino({ level: config.logLevel });
  const ctx = await compose(config, undefined, log);
  const worker = workerOnly || config.runWorker ? ctx.createWorker() : null;
  let ready = false;

  const app = workerOnly
    ? null
    : await buildApp(
        ctx.services,
        httpSettings(config, { isReady: () => ready, ...(logStream ? { logStream } : {}) }),
        webPages(ctx.services, ctx.web),
      );

  if (app) {
    // This process answers simulations: it owns the journal of answered turns (stores what a crash left in it first).
    await ctx.deferTurns();
    // What the first simulate needs (wink-nlp, the sentence encoder) is loaded at start, not by it.
    ctx.memories.warmUp();
    await ctx.searcher.warmUp();
    const owner = await ctx.services.accounts.ensureOwner();
    // Printed once, on purpose, outside the structured log.
    if (owner) process.stdout.write(ownerCreatedText(owner, config.publicUrl));
    else {
      const { accounts, apiKeys } = ctx.store.repos;
      const unused = await ownerWithUnusedKey({ accountByEmail: (e) => accounts.byEmail(e), activeKeys: (id) => apiKeys.activeForAccount(id) });
      if (unused) process.stdout.write(ownerKeyNotice(unused));
    }
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (err) {
      // Taken since the check (another program, the same moment): said as plainly, and a key printed above is kept.
      throw withOwnerKept(listenFailure(err, config.port, config.host), owner);
    }
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down');
    ready = false;
    // Both stop taking work at once; requests in hand finish, jobs in hand finish or are released after the grace.
    await Promise.all([app?.close(), worker?.stop(config.shutdownGraceMs)]);
    await ctx.close();
    process.exit(0);
  };
  // Before the line that says it started: a signal sent on seeing it drains instead of killing.
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  worker?.start();
  ready = true;
  ctx.log.info({ api: Boolean(app), worker: Boolean(worker), dataDir: config.dataDir }, 'mind simulation service started');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
