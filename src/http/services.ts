import type { AccountService } from '../domain/accounts.ts';
import type { MindService } from '../domain/minds.ts';
import type { ProfileService } from '../domain/profile.ts';
import type { SimulationService } from '../domain/simulation.ts';
import type { SnapshotService } from '../domain/snapshots.ts';
import type { UploadService } from '../domain/uploads.ts';
import type { WebhookService } from '../domain/webhooks.ts';
import type { EngineRegistry } from '../engines/registry.ts';

/** What the HTTP layer may call: domain services only, never repositories or adapters. */
export interface Services {
  accounts: AccountService;
  minds: MindService;
  uploads: UploadService;
  snapshots: SnapshotService;
  simulation: SimulationService;
  profiles: ProfileService;
  webhooks: WebhookService;
  engines: EngineRegistry;
}

export interface HttpSettings {
  publicUrl: string;
  maxDirectFileBytes: number;
  maxUploadBytes: number;
  maxWebhookBytes: number;
  logLevel: string;
  /** Called after a snapshot is enqueued, so an in-process worker can start at once. */
  onSnapshotEnqueued?: () => void;
  isReady?: () => boolean;
}
