import path from 'node:path';
import { z } from 'zod';
import { loadStoreConfig, type StoreConfig } from './store/config.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting of the service, read once from the environment and validated. Documented in README.md. */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  RUN_WORKER: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 24 * 3600).default(900),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
  MAX_DIRECT_FILE_BYTES: z.coerce.number().int().min(1).default(4 * 1024 * 1024),
  MAX_WEBHOOK_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  JOB_LEASE_MS: z.coerce.number().int().min(500).default(30_000),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  WORKER_POLL_MS: z.coerce.number().int().min(10).default(250),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  ANALYSIS_MAX_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
  SIGNING_SECRET: z.string().min(32).optional(),
  STRICT_MODELS: bool.default(false),
  API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  LLM_PROVIDER: z.enum(['openai', 'anthropic', 'openai-compatible']).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  LLM_CONTEXT_WORDS: z.coerce.number().int().min(500).default(12_000),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  runWorker: boolean;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
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
  strictModels: boolean;
  /** How long a verified API key is trusted without a database lookup (0 = never cached). */
  apiKeyCacheMs: number;
  /** PostgreSQL and S3 settings (src/store/config.ts); the embedded defaults when unset. */
  store: StoreConfig;
  /** On SIGTERM, how long jobs in hand may run on before they are handed back to the queue. */
  shutdownGraceMs: number;
  /** The LLM behind mind-reasoner-pro; null when none is configured (LLM_PROVIDER and LLM_MODEL unset). */
  llm: LlmSettings | null;
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
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl,
    dataDir: path.resolve(c.DATA_DIR),
    runWorker: c.RUN_WORKER,
    logLevel: c.LOG_LEVEL,
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
    strictModels: c.STRICT_MODELS,
    apiKeyCacheMs: c.API_KEY_CACHE_MS,
    store: loadStoreConfig(env),
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
  };
}
