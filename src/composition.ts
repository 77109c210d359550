import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { AccountService } from './domain/accounts.ts';
import { MindService } from './domain/minds.ts';
import { systemRuntime, type Runtime } from './domain/runtime.ts';
import { UrlSigner } from './domain/signed-urls.ts';
import { PROCESS_SNAPSHOT, SnapshotService } from './domain/snapshots.ts';
import { SimulationService } from './domain/simulation.ts';
import { UploadService } from './domain/uploads.ts';
import { WebhookService } from './domain/webhooks.ts';
import { GroundedEngine } from './engines/grounded.ts';
import { EngineRegistry } from './engines/registry.ts';
import type { Services } from './http/services.ts';
import { AnalysisPool } from './jobs/analysis-pool.ts';
import { ProcessSnapshotJob } from './jobs/process-snapshot.ts';
import { Worker } from './jobs/worker.ts';
import { FilesystemBlobStore } from './store/blobs/filesystem.ts';
import type { BlobStore } from './store/blobs/blob-store.ts';
import { openSqlite } from './store/db/sqlite.ts';
import { DbJobQueue } from './store/queue/db-queue.ts';
import { Store } from './store/store.ts';

/** Everything the service is made of, built from configuration in one place. */
export interface Context {
  config: Config;
  log: Logger;
  store: Store;
  blobs: BlobStore;
  services: Services;
  createWorker(): Worker;
  close(): Promise<void>;
}

export async function compose(config: Config, rt: Runtime = systemRuntime, log: Logger = pino({ level: config.logLevel })): Promise<Context> {
  const db = await openSqlite(config.dataDir);
  const store = new Store(db, (conn) => new DbJobQueue(conn, rt, config.jobMaxAttempts));
  const blobs = new FilesystemBlobStore(path.join(config.dataDir, 'blobs'));

  const secret =
    config.signingSecret ?? (await store.repos.settings.getOrInit('url_signing_secret', rt.randomBytes(32).toString('hex')));
  const signer = new UrlSigner(Buffer.from(secret, 'utf8'));

  const engines = new EngineRegistry({ grounded: new GroundedEngine() });
  const accounts = new AccountService(store.repos, rt, config.apiKeyCacheMs);
  const minds = new MindService(store, blobs, rt);
  const services: Services = {
    accounts,
    minds,
    engines,
    uploads: new UploadService(store, blobs, minds, signer, rt, {
      publicUrl: config.publicUrl,
      ttlSeconds: config.signedUrlTtlSeconds,
      maxUploadBytes: config.maxUploadBytes,
    }),
    snapshots: new SnapshotService(store, blobs, minds, rt),
    simulation: new SimulationService(store, minds, engines, config.strictModels),
    webhooks: new WebhookService(store, rt, `${config.publicUrl}/webhook`),
  };

  let analysis: AnalysisPool | null = null;
  const createWorker = () => {
    analysis ??= new AnalysisPool({
      threads: config.workerConcurrency,
      timeoutMs: config.analysisTimeoutMs,
      maxMemoryMb: config.analysisMaxMemoryMb,
    });
    const pool = analysis;
    return new Worker(
      store.queue,
      { [PROCESS_SNAPSHOT]: new ProcessSnapshotJob(store, blobs, rt, log, (task) => pool.analyse(task)) },
      {
        id: `${os.hostname()}:${process.pid}:${rt.newId().slice(0, 8)}`,
        leaseMs: config.jobLeaseMs,
        pollMs: config.workerPollMs,
        concurrency: config.workerConcurrency,
      },
      log.child({ component: 'worker' }),
    );
  };

  const close = async () => {
    await analysis?.close();
    await store.destroy();
  };
  return { config, log, store, blobs, services, createWorker, close };
}
