import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { AccessLogService } from './domain/access-log.ts';
import { AccountService } from './domain/accounts.ts';
import { DigitalTwinService } from './domain/digital-twins.ts';
import { LoginService } from './domain/logins.ts';
import { MindMemories } from './domain/mind-memory.ts';
import { MindService } from './domain/minds.ts';
import { ProfileService } from './domain/profile.ts';
import { PsychometricsService } from './domain/psychometrics.ts';
import { RateLimits } from './domain/rate-limits.ts';
import { systemRuntime, type Runtime } from './kernel/runtime.ts';
import { UrlSigner } from './domain/signed-urls.ts';
import { SnapshotDetailsService } from './domain/snapshot-details.ts';
import { PROCESS_SNAPSHOT, SnapshotService } from './domain/snapshots.ts';
import { RUN_SIMULATION, SimulationService } from './domain/simulation.ts';
import { SimulationHistory } from './domain/simulations.ts';
import { PanelService } from './domain/panels.ts';
import { PrivacySettingsService } from './domain/privacy-settings.ts';
import { PendingTurns } from './domain/pending-turns.ts';
import { PanelRunner } from './domain/panel-runner.ts';
import { RUN_PANEL_UNIT } from './domain/panel.ts';
import { TagService } from './domain/tags.ts';
import { CorrectionService } from './domain/corrections.ts';
import { ReviewLinkService } from './domain/review-links.ts';
import { UploadService } from './domain/uploads.ts';
import { UsageService } from './domain/usage.ts';
import { ExportService } from './domain/export.ts';
import { RETENTION_SWEEP, RetentionService } from './domain/retention.ts';
import { WebhookService } from './domain/webhooks.ts';
import { GroundedEngine } from './engines/grounded.ts';
import { ThreadedEncoder } from './memory/encoder/threaded-encoder.ts';
import { UseLiteEncoder } from './memory/encoder/use-lite.ts';
import { rankingParams } from './memory/params/params.ts';
import { Searcher } from './memory/search/searcher.ts';
import { embedForStorage } from './memory/build/passages.ts';
import { LlmEngine } from './engines/llm.ts';
import type { LlmClient } from './engines/llm-model.ts';
import { RedactionService } from './domain/redaction.ts';
import { reflector } from './engines/llm-reflections.ts';
import { psychometricEstimator } from './engines/llm-psychometrics.ts';
import { EngineRegistry } from './engines/registry.ts';
import type { Services } from './http/services.ts';
import type { WebSettings } from './web/settings.ts';
import { DatabaseSessionStore } from './store/session-store.ts';
import { AnalysisPool, type AnalysisSettings } from './jobs/analysis-pool.ts';
import { ProcessSnapshotJob } from './jobs/process-snapshot.ts';
import { RunSimulationJob } from './jobs/run-simulation.ts';
import { RunPanelUnitJob } from './jobs/run-panel-unit.ts';
import { Worker } from './jobs/worker.ts';
import { RetentionSweepJob } from './jobs/retention-sweep.ts';
import type { BlobStore } from './store/blobs/blob-store.ts';
import { openStorage } from './store/open.ts';
import { openRateLimitStore } from './store/rate-limit-stores.ts';
import type { Store } from './store/store.ts';
import { openTurnJournal } from './store/turn-journal.ts';

/** How often the worker purges access-log rows past AUDIT_RETENTION_DAYS. */
const AUDIT_PURGE_MS = 6 * 3600_000;

/** Everything the service is made of, built from configuration in one place. */
export interface Context {
  config: Config;
  log: Logger;
  store: Store;
  blobs: BlobStore;
  services: Services;
  /** Each set of snapshots' memory, indexed once per process (dropped when its mind is deleted). */
  memories: MindMemories;
  searcher: Searcher;
  /** What the dashboard's sessions need (src/web). */
  web: WebSettings;
  /** New conversations' first turns not yet stored (their counts: tests and benchmarks). */
  turns: PendingTurns;
  createWorker(): Worker;
  /**
   * For the process that serves the API: takes the journal of answered turns (DATA_DIR/simulation-turns),
   * stores what a process that stopped left in it, and from then on stores new conversations' first
   * turns after their answer. False (turns stored before their answer) with SIMULATION_FLUSH_MS=0 or
   * when another process holds the journal.
   */
  deferTurns(): Promise<boolean>;
  close(): Promise<void>;
}

/** The analysis threads' settings from the configuration: how many, and each one's time and memory limits. */
export function analysisSettings(config: Config): AnalysisSettings {
  return { threads: config.workerConcurrency, timeoutMs: config.analysisTimeoutMs, maxMemoryMb: config.analysisMaxMemoryMb };
}

/** Adapters a caller brings instead of the ones compose makes (and then does not close). */
export interface Adapters {
  /** Transcript analysis: an AnalysisPool of this process's own threads by default. */
  analysis?: Pick<AnalysisPool, 'analyse' | 'embed' | 'selfCheck'>;
  /** Hears the SQL of every statement the database runs (tests count the writes with it). */
  onQuery?: (sql: string) => void;
}

export async function compose(
  config: Config,
  rt: Runtime = systemRuntime,
  log: Logger = pino({ level: config.logLevel }),
  adapters: Adapters = {},
): Promise<Context> {
  const { store, blobs } = await openStorage(config, rt, adapters.onQuery);

  const secret =
    config.signingSecret ?? (await store.repos.settings.getOrInit('url_signing_secret', rt.randomBytes(32).toString('hex')));
  const signer = new UrlSigner(Buffer.from(secret, 'utf8'));
  const web: WebSettings = {
    sessionSecret:
      config.sessionSecret ?? (await store.repos.settings.getOrInit('session_secret', rt.randomBytes(32).toString('hex'))),
    sessionTtlMs: config.sessionTtlSeconds * 1000,
    sessionStore: new DatabaseSessionStore(store.repos.sessions, config.sessionTtlSeconds * 1000, () => rt.now()),
    loginRateLimit: config.loginRateLimit,
  };

  // The AI SDK and its providers are loaded only when an LLM is configured.
  const llm: LlmClient | null = config.llm ? new (await import('./engines/llm-model.ts')).LlmClient(config.llm) : null;
  // The learned search: the sentence encoder (loaded on first use, or at start by main.ts) and the fitted parameters.
  // With QUERY_ENCODER_THREADS, scenarios are embedded in threads of their own (two at once on two cores).
  let queryEncoder: ThreadedEncoder | null = null;
  const searcher = new Searcher(
    async () => (config.queryEncoderThreads > 0 ? (queryEncoder = await ThreadedEncoder.start(config.queryEncoderThreads)) : UseLiteEncoder.load()),
    rankingParams(),
  );
  const engines = new EngineRegistry({ grounded: new GroundedEngine(searcher), ...(llm ? { llm: new LlmEngine(llm, searcher) } : {}) });
  const accounts = new AccountService(store.repos, rt, config.apiKeyCacheMs, { requireConsent: config.requireConsent });
  const minds = new MindService(store, blobs, rt, config.redaction);
  const redaction = new RedactionService(store, config.redactionKey ?? (await store.repos.settings.getOrInit('redaction_key', rt.randomBytes(32).toString('hex'))), rt);
  // Snapshots processed before passage vectors were stored get theirs on first use (in this process, once).
  const memories = new MindMemories(store, searcher.encoderId, async (texts) => embedForStorage(await searcher.encoderNow(), texts), config.memoryCacheBytes);
  minds.onDeleted(({ snapshotIds }) => memories.forget(snapshotIds));
  // Built before `services`: settleDirectUpload reaches the upload service through it, once both exist.
  const snapshots: SnapshotService = new SnapshotService(store, blobs, minds, rt, {
    settleDirectUpload: (artifact) => services.uploads.settleDirectUpload(artifact),
    statusCacheMs: config.statusCacheMs,
  });
  snapshots.onDeleted(({ snapshotId }) => memories.forget([snapshotId]));
  const profiles = new ProfileService(store, minds, memories, snapshots);
  const limiterStore = openRateLimitStore(config.rateLimit, store.repos.rateLimitWindows, log);
  const rateLimits = new RateLimits(config.rateLimit, limiterStore.store, config.rateLimit.store, limiterStore.close);
  const usage = new UsageService(store.repos.usage, rt, config.usageFlushMs, (err) =>
    log.warn({ err }, 'usage counts could not be saved; they are kept for the next flush'),
  );
  const turns = new PendingTurns(store, { flushMs: config.simulationFlushMs, sharedDatabase: Boolean(config.store.databaseUrl) }, (err) =>
    log.warn({ err }, 'answered simulation turns could not be stored yet; they stay in the journal and are tried again'),
  );
  const simulations = new SimulationHistory(store, minds, turns);
  const corrections = new CorrectionService(store, minds, simulations, rt).redacting(redaction);
  const accessLog = new AccessLogService(store, rt, config.auditRetentionDays);
  const services: Services = {
    accounts,
    logins: new LoginService(store.repos, rt, { requireConsent: config.requireConsent }),
    minds,
    tags: new TagService(store, rt),
    uploads: new UploadService(store, blobs, minds, signer, rt, {
      publicUrl: config.publicUrl,
      ttlSeconds: config.signedUrlTtlSeconds,
      maxUploadBytes: config.maxUploadBytes,
    }),
    snapshots,
    snapshotDetails: new SnapshotDetailsService(store, snapshots),
    twins: new DigitalTwinService(store, minds, rt),
    psychometrics: new PsychometricsService(store, minds, snapshots),
    simulation: new SimulationService(store, minds, engines, config.strictModels, memories, rt, turns).redacting(redaction),
    simulations,
    panels: new PanelService(store, engines, { maxAnswers: config.panelMaxAnswers, strictModels: config.strictModels }, rt),
    profiles,
    webhooks: new WebhookService(store, rt, `${config.publicUrl}/webhook`),
    rateLimits,
    usage,
    exports: new ExportService(store, blobs, minds, turns, rt),
    privacy: new PrivacySettingsService(store.repos),
    accessLog,
    corrections,
    reviewLinks: new ReviewLinkService({ store, minds, simulations, corrections, accessLog }, rt, config.publicUrl),
  };
  // The access log's triggers read the retention from the database: every process writes its own at start.
  await services.accessLog.applyRetention();
  services.simulation.onSimulated((auth, twinId) => usage.simulated(auth, twinId));
  services.snapshots.onEnqueued((auth) => usage.snapshotCreated(auth));

  let analysis: AnalysisPool | null = null;
  // The access log's purge runs with the worker: at its start, then every AUDIT_PURGE_MS.
  let stopAuditPurge: (() => Promise<void>) | null = null;
  let retentionScheduled: Promise<void> | null = null;
  const createWorker = () => {
    stopAuditPurge ??= services.accessLog.schedulePurge(AUDIT_PURGE_MS, (purged) => {
      if (purged instanceof Error) log.warn({ err: purged }, 'the access-log purge failed; it runs again later');
      else if (purged > 0) log.info({ purged }, 'access-log rows older than AUDIT_RETENTION_DAYS purged');
    });
    const pool =
      adapters.analysis ??
      (analysis ??= new AnalysisPool(analysisSettings(config), (err) => log.warn({ err }, 'an analysis thread ended abnormally')));
    const retentionSweep = new RetentionSweepJob(new RetentionService(store, snapshots, rt), config.retentionIntervalMs, log.child({ component: 'retention' }));
    const worker = new Worker(
      store.queue,
      {
        [RETENTION_SWEEP]: retentionSweep,
        [PROCESS_SNAPSHOT]: new ProcessSnapshotJob(store, blobs, rt, log, { analyse: (task) => pool.analyse(task), embed: (texts) => pool.embed(texts), selfCheck: (memories, passages) => pool.selfCheck(memories, passages) }, llm ? reflector(llm) : null, llm ? psychometricEstimator(llm) : null).redacting(redaction),
        [RUN_SIMULATION]: new RunSimulationJob(services.simulation),
        [RUN_PANEL_UNIT]: new RunPanelUnitJob(new PanelRunner(store, engines, memories, rt, config.panelLlmConcurrency).redacting(redaction)),
      },
      {
        id: `${os.hostname()}:${process.pid}:${rt.newId().slice(0, 8)}`,
        leaseMs: config.jobLeaseMs,
        pollMs: config.workerPollMs,
        concurrency: config.workerConcurrency,
      },
      log.child({ component: 'worker' }),
    );
    // A snapshot, background simulation or panel created by this process is taken at once, not at the next poll.
    services.snapshots.onEnqueued(() => worker.poke());
    services.simulation.onEnqueued(() => worker.poke());
    services.panels.onEnqueued(() => worker.poke());
    // The retention sweep is a job of the queue: each worker queues one at its start (at most one waits), each run queues the next.
    retentionScheduled = retentionSweep.start().then(
      () => worker.poke(),
      (err: unknown) => log.warn({ err }, 'the retention sweep could not be queued; the next worker start queues it'),
    );
    return worker;
  };

  const deferTurns = async () => {
    if (config.simulationFlushMs <= 0 || turns.deferring) return turns.deferring;
    const journal = openTurnJournal(path.join(config.dataDir, 'simulation-turns'));
    if (!journal) {
      log.warn('another process holds the journal of simulation turns in this data folder: this one stores each turn before answering');
      return false;
    }
    const left = await turns.start(journal);
    if (left.replayed + left.dropped + left.unreadable > 0) log.info(left, 'simulation turns answered before a stop were stored from the journal');
    return true;
  };

  const close = async () => {
    // Answered turns, then the usage counts still in memory, are written before the database closes.
    await turns.close();
    await usage.close().catch((err: unknown) => log.error({ err }, 'usage counts lost on close'));
    await rateLimits.close();
    await stopAuditPurge?.();
    await retentionScheduled;
    await analysis?.close();
    await queryEncoder?.close();
    await store.destroy();
  };
  return { config, log, store, blobs, services, memories, searcher, web, turns, createWorker, deferTurns, close };
}
