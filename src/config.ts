import path from 'node:path';
import { z } from 'zod';
import type { LogFormat } from './logging.ts';
import { REDACTION_MODES, type RedactionMode } from './privacy/kinds.ts';
import { defaultRedaction } from './privacy/mode.ts';
import { loadStoreConfig, type StoreConfig } from './store/config.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** On SQLite, a new conversation's first turn is stored this long after its answer, with the others answered meanwhile. */
const DEFAULT_SIMULATION_FLUSH_MS = 100;

/** Every setting of the service, read once from the environment and validated. Documented in docs/OPERATIONS.md ("Configuration"). */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  RUN_WORKER: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(900),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
  MAX_DIRECT_FILE_BYTES: z.coerce.number().int().min(1).default(4 * 1024 * 1024),
  MAX_WEBHOOK_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  JOB_LEASE_MS: z.coerce.number().int().min(500).default(30_000),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  WORKER_POLL_MS: z.coerce.number().int().min(10).default(250),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  ANALYSIS_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
  SIGNING_SECRET: z.string().min(32).optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  TRUST_PROXY: z.string().min(1).optional(),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(1).max(365 * 24 * 3600).default(7 * 24 * 3600),
  STRICT_MODELS: bool.default(false),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  STATUS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  LLM_PROVIDER: z.enum(['openai', 'anthropic', 'openai-compatible']).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  LLM_CONTEXT_WORDS: z.coerce.number().int().min(500).default(12_000),
  RATE_LIMIT_ENABLED: bool.default(true),
  RATE_LIMIT_STANDARD: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_PRO: z.coerce.number().int().min(1).default(500),
  RATE_LIMIT_STORE: z.enum(['memory', 'database', 'redis']).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  USAGE_FLUSH_MS: z.coerce.number().int().min(10).default(5000),
  SIMULATION_FLUSH_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  PANEL_MAX_ANSWERS: z.coerce.number().int().min(1).default(20_000),
  PANEL_LLM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  MEMORY_CACHE_MB: z.coerce.number().positive().default(256),
  QUERY_ENCODER_THREADS: z.coerce.number().int().min(0).max(16).default(0),
  REDACTION: z.enum(REDACTION_MODES).optional(),
  REDACTION_KEY: z.string().min(32).optional(),
  REQUIRE_CONSENT: bool.default(false),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(400),
  RETENTION_INTERVAL_MS: z.coerce.number().int().min(1000).max(7 * 24 * 3600_000).default(3600_000),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  runWorker: boolean;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  /** JSON or pretty log lines; unset, it follows stdout (pretty on a terminal, see logging.ts). */
  logFormat: LogFormat | undefined;
  signedUrlTtlSeconds: number;
  maxUploadBytes: number;
  maxDirectFileBytes: number;
  maxWebhookBytes: number;
  jobLeaseMs: number;
  jobMaxAttempts: number;
  workerPollMs: number;
  workerConcurrency: number;
  /** Time limit for reading one file (parse + memory bank), in its worker thread. */
  analysisTimeoutMs: number;
  /** Heap limit of an analysis worker thread. */
  analysisMaxMemoryMb: number;
  /** When unset, a secret is generated once and kept in the database. */
  signingSecret: string | undefined;
  /** Signs the dashboard's session and CSRF cookies; generated once and kept in the database when unset. */
  sessionSecret: string | undefined;
  /**
   * Fastify's trustProxy: true, a hop count, or a list of proxy addresses, so X-Forwarded-Proto/-For
   * count (https cookies, client IPs). Off by default.
   */
  trustProxy: boolean | number | string;
  /** Log-in and sign-up attempts per minute per client address (each form on its own). */
  loginRateLimit: number;
  /** A dashboard session ends this long after log-in. */
  sessionTtlSeconds: number;
  strictModels: boolean;
  /** The most answers (minds × questions) one panel may ask for (413 beyond). */
  panelMaxAnswers: number;
  /** Questions of one panel unit the LLM engine answers at once. */
  panelLlmConcurrency: number;
  /** The budget of the indexed minds' memories a process keeps (domain/mind-memory.ts), in bytes. */
  memoryCacheBytes: number;
  /** Threads that embed scenarios (0: the encoder runs in the thread that serves HTTP). */
  queryEncoderThreads: number;
  /** How long a verified API key is trusted without a database lookup (0 = never cached). */
  apiKeyCacheMs: number;
  /** How long a completed or failed snapshot status is answered from memory (0 = never cached). */
  statusCacheMs: number;
  /** PostgreSQL and S3 settings (src/store/config.ts); the embedded defaults when unset. */
  store: StoreConfig;
  /** On SIGTERM, how long jobs in hand may run on before they are handed back to the queue. */
  shutdownGraceMs: number;
  /** The LLM behind mind-reasoner-pro; null when none is configured (LLM_PROVIDER and LLM_MODEL unset). */
  llm: LlmSettings | null;
  /** Per-key request limits on the public API. */
  rateLimit: RateLimitSettings;
  /** How often the usage meter writes its in-memory counts to the database. */
  usageFlushMs: number;
  /** A new mind's redaction unless the request sets one (REDACTION; unset: outbound with an LLM off loopback, else off). */
  redaction: RedactionMode;
  /** The key of the hashes third parties' numbers are kept under; generated once and kept in the database when unset. */
  redactionKey: string | undefined;
  /** New accounts require consent on record before their minds are simulated, panelled or sent to an LLM (accounts.require_consent). */
  requireConsent: boolean;
  /** Access-log rows younger than this many days cannot be deleted (the database's triggers); older ones are purged by the worker. */
  auditRetentionDays: number;
  /** How often the retention sweep erases what is older than an account's retentionDays (a job of the queue; the first at a worker's start). */
  retentionIntervalMs: number;
  /**
   * How long a new conversation's answered first turn waits (journaled in DATA_DIR) to be stored
   * with those answered after it; 0: stored before the answer. Default 100 on SQLite, 0 on PostgreSQL.
   */
  simulationFlushMs: number;
}

export interface RateLimitSettings {
  enabled: boolean;
  /** Requests per minute per API key, by the account's tier. */
  perMinute: { standard: number; pro: number };
  /** Where the counters live: this process only, the database, or Redis (shared by every API process). */
  store: 'memory' | 'database' | 'redis';
  redisUrl: string | undefined;
}

export interface LlmSettings {
  provider: 'openai' | 'anthropic' | 'openai-compatible';
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** A transcript up to this many words goes to the LLM whole; beyond it, retrieved memories only. */
  contextWords: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if ((c.LLM_PROVIDER === undefined) !== (c.LLM_MODEL === undefined)) {
    throw new Error('Invalid configuration:\n  LLM_PROVIDER and LLM_MODEL must be set together.');
  }
  if (c.LLM_PROVIDER === 'openai-compatible' && !c.LLM_BASE_URL) {
    throw new Error('Invalid configuration:\n  LLM_BASE_URL is required with LLM_PROVIDER=openai-compatible.');
  }
  const publicUrl = (c.PUBLIC_URL ?? `http://127.0.0.1:${c.PORT}`).replace(/\/+$/, '');
  const store = loadStoreConfig(env);
  const rateLimitStore = c.RATE_LIMIT_STORE ?? (c.REDIS_URL ? 'redis' : store.databaseUrl ? 'database' : 'memory');
  if (rateLimitStore === 'redis' && !c.REDIS_URL) {
    throw new Error('Invalid configuration:\n  REDIS_URL is required with RATE_LIMIT_STORE=redis.');
  }
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl,
    dataDir: path.resolve(c.DATA_DIR),
    runWorker: c.RUN_WORKER,
    logLevel: c.LOG_LEVEL,
    logFormat: c.LOG_FORMAT,
    signedUrlTtlSeconds: c.SIGNED_URL_TTL_SECONDS,
    maxUploadBytes: c.MAX_UPLOAD_BYTES,
    maxDirectFileBytes: c.MAX_DIRECT_FILE_BYTES,
    maxWebhookBytes: c.MAX_WEBHOOK_BYTES,
    jobLeaseMs: c.JOB_LEASE_MS,
    jobMaxAttempts: c.JOB_MAX_ATTEMPTS,
    workerPollMs: c.WORKER_POLL_MS,
    workerConcurrency: c.WORKER_CONCURRENCY,
    analysisTimeoutMs: c.ANALYSIS_TIMEOUT_MS,
    analysisMaxMemoryMb: c.ANALYSIS_MAX_MEMORY_MB,
    signingSecret: c.SIGNING_SECRET,
    sessionSecret: c.SESSION_SECRET,
    sessionTtlSeconds: c.SESSION_TTL_SECONDS,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    loginRateLimit: c.LOGIN_RATE_LIMIT,
    strictModels: c.STRICT_MODELS,
    panelMaxAnswers: c.PANEL_MAX_ANSWERS,
    panelLlmConcurrency: c.PANEL_LLM_CONCURRENCY,
    memoryCacheBytes: Math.floor(c.MEMORY_CACHE_MB * 1024 * 1024),
    queryEncoderThreads: c.QUERY_ENCODER_THREADS,
    apiKeyCacheMs: c.API_KEY_CACHE_MS,
    statusCacheMs: c.STATUS_CACHE_MS,
    store,
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    llm:
      c.LLM_PROVIDER && c.LLM_MODEL
        ? {
            provider: c.LLM_PROVIDER,
            baseUrl: c.LLM_BASE_URL,
            apiKey: c.LLM_API_KEY,
            model: c.LLM_MODEL,
            timeoutMs: c.LLM_TIMEOUT_MS,
            maxRetries: c.LLM_MAX_RETRIES,
            contextWords: c.LLM_CONTEXT_WORDS,
          }
        : null,
    rateLimit: {
      enabled: c.RATE_LIMIT_ENABLED,
      perMinute: { standard: c.RATE_LIMIT_STANDARD, pro: c.RATE_LIMIT_PRO },
      store: rateLimitStore,
      redisUrl: c.REDIS_URL,
    },
    usageFlushMs: c.USAGE_FLUSH_MS,
    redaction: defaultRedaction(c.REDACTION, c.LLM_PROVIDER && c.LLM_MODEL ? { baseUrl: c.LLM_BASE_URL } : null),
    redactionKey: c.REDACTION_KEY,
    requireConsent: c.REQUIRE_CONSENT,
    auditRetentionDays: c.AUDIT_RETENTION_DAYS,
    retentionIntervalMs: c.RETENTION_INTERVAL_MS,
    // PostgreSQL's API nodes are stateless (any node may take the next request, none keeps a disk): there a turn is stored before its answer unless asked.
    simulationFlushMs: c.SIMULATION_FLUSH_MS ?? (store.databaseUrl ? 0 : DEFAULT_SIMULATION_FLUSH_MS),
  };
}

/** TRUST_PROXY=true|false|<hops>|<comma-separated addresses or CIDRs>. */
function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (v === undefined || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  return /^\d+$/.test(v) ? Number(v) : v;
}
