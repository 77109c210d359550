/**
 * The whole service in the calling process, as `src/main.ts` assembles it: the composition root,
 * the Fastify app listening on a free loopback port (real HTTP, so the typed SDK, fetch and MCP
 * clients work unchanged), the owner account and, unless RUN_WORKER=false, the worker (its
 * analysis threads shared by the services of this process: analysis.ts). Starts in a few hundred
 * milliseconds where a child process takes seconds; the tests that need a process of their own
 * (signals, crashes, the CLI) use process.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { compose, type Context } from '../src/composition.ts';
import { sharedAnalysis } from './analysis.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, httpSettings } from '../src/http/app.ts';
import { webPages } from '../src/web/plugin.ts';
import type { Worker } from '../src/jobs/worker.ts';
import type { Runtime } from '../src/kernel/runtime.ts';
import { freePort, type ServiceAddress } from './process.ts';
import { testSdk, type TestSdk } from './sdk.ts';

export type Tier = 'standard' | 'pro';

export interface Service extends ServiceAddress {
  ctx: Context;
  app: FastifyInstance;
  /** Every log line so far (JSON), the request log and the service's own. */
  logs(): string;
  /** The typed SDK with a key (the owner's by default): no retries, the last response's status and headers kept. */
  sdk(apiKey?: string): TestSdk;
  /** What the operator CLI does (`npm run admin -- …`), through the same services, without a process. */
  admin: Admin;
  /** Stops as SIGTERM does (requests and jobs in hand finish, usage counts written); removes the data folder if it was made here. */
  close(): Promise<void>;
}

export interface Admin {
  createAccount(email: string, tier: Tier): Promise<{ accountId: string; apiKey: string }>;
  createApiKey(accountId: string, name?: string): Promise<{ apiKey: string; prefix: string }>;
  revokeApiKey(prefix: string): Promise<void>;
  setTier(accountId: string, tier: Tier): Promise<void>;
  createWebhookCredentials(accountId: string): Promise<{ url: string; username: string; password: string }>;
  setPassword(accountId: string, password: string): Promise<{ accountId: string; email: string }>;
}

/** The environment of a test service: embedded defaults whatever the shell holds, a fast worker poll, no practical rate limit. */
export function serviceEnv(extra: Record<string, string>, defaults: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    WORKER_POLL_MS: '50',
    // Tests make many requests with one key: rate limits only where a test sets them.
    RATE_LIMIT_STANDARD: '1000000000',
    RATE_LIMIT_PRO: '1000000000',
    ...defaults,
    ...extra,
  };
  for (const k of ['DATABASE_URL', 'BLOB_STORE', 'REDIS_URL', 'RATE_LIMIT_STORE']) if (!(k in extra)) delete env[k];
  return env;
}

/** What a test may bring besides the environment. */
export interface ServiceOptions {
  /** Hears the SQL of every statement the service's database runs (to count writes). */
  onQuery?: (sql: string) => void;
  /** The service's clock, ids and randomness (a test moves the clock: the retention sweep, expiries). */
  rt?: Runtime;
}

/**
 * Starts the service in this process on a free port; `DATA_DIR` in `extraEnv` shares another service's data.
 * The port is chosen before the service is composed (its PUBLIC_URL names it), so another server of the
 * test process (s3rver, a second service) may take it first: then the service is started again on
 * another port (EADDRINUSE, three tries).
 */
export async function startService(extraEnv: Record<string, string> = {}, opts: ServiceOptions = {}): Promise<Service> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(extraEnv, opts);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw err;
    }
  }
}

async function startServiceOnce(extraEnv: Record<string, string>, opts: ServiceOptions): Promise<Service> {
  const ownDir = !extraEnv.DATA_DIR;
  const dataDir = extraEnv.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-svc-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = serviceEnv(extraEnv, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl });
  const config = loadConfig(env);
  let logged = '';
  const stream = { write: (line: string) => void (logged += line) };
  const ctx = await compose(config, opts.rt, pino({ level: config.logLevel }, stream), {
    analysis: sharedAnalysis(config),
    ...(opts.onQuery ? { onQuery: opts.onQuery } : {}),
  });
  let worker: Worker | null = null;
  let app: FastifyInstance | null = null;
  try {
    worker = config.runWorker ? ctx.createWorker() : null;
    app = await buildApp(ctx.services, httpSettings(config, { logStream: stream }), webPages(ctx.services, ctx.web));
    // Unlike main.ts, no ctx.memories.warmUp(): the first simulate loads wink-nlp and the sentence
    // encoder itself, so a test file that simulates nothing in this thread never loads them.
    // As main.ts: an API process owns the journal of answered turns (unless another service on this data folder does).
    await ctx.deferTurns();
    const owner = await ctx.services.accounts.ensureOwner();
    await app.listen({ port, host: '127.0.0.1' });
    worker?.start();
    const apiKey = owner?.apiKey ?? '';
    return {
      baseUrl,
      api: `${baseUrl}/api/public/v1`,
      apiKey,
      ownerAccountId: owner?.accountId ?? '',
      dataDir,
      env,
      ctx,
      app,
      logs: () => logged,
      sdk: (key = apiKey) => testSdk(baseUrl, key),
      admin: adminOf(ctx),
      close: stopper(ctx, app, worker, ownDir ? dataDir : null),
    };
  } catch (err) {
    await stopper(ctx, app, worker, ownDir ? dataDir : null)();
    throw err;
  }
}

/**
 * The services of one test process close one at a time. Services sharing a data folder hold two
 * SQLite connections in one thread, and each writes its usage counts on close in a transaction:
 * better-sqlite3 waits for a lock synchronously, holding the very thread the other connection needs
 * to commit, so two closes at once waited out the busy timeout (5 s) twice and lost the counts.
 */
let closes: Promise<unknown> = Promise.resolve();

function stopper(ctx: Context, app: FastifyInstance | null, worker: Worker | null, ownDir: string | null) {
  let closing: Promise<void> | null = null;
  const close = async () => {
    // As main.ts on SIGTERM: both stop taking work at once, then the store, the limiter and the analysis threads close.
    await Promise.all([app?.close(), worker?.stop(ctx.config.shutdownGraceMs)]);
    await ctx.close();
    if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
  };
  return () => {
    if (!closing) {
      closing = closes.then(close);
      closes = closing.catch(() => undefined);
    }
    return closing;
  };
}

function adminOf(ctx: Context): Admin {
  const { accounts, webhooks, logins } = ctx.services;
  return {
    createAccount: async (email, tier) => {
      const { accountId, apiKey } = await accounts.createAccount(email, tier);
      return { accountId, apiKey };
    },
    createApiKey: (accountId, name) => accounts.createApiKey(accountId, name ?? null),
    revokeApiKey: (prefix) => accounts.revokeApiKey(prefix),
    setTier: (accountId, tier) => accounts.setTier(accountId, tier),
    createWebhookCredentials: (accountId) => webhooks.createCredentials(accountId),
    setPassword: async (accountId, password) => {
      const account = await logins.setPassword(accountId, password);
      return { accountId: account.id, email: account.email };
    },
  };
}
