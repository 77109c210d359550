import type { AccessLogService } from '../domain/access-log.ts';
import type { AccountService } from '../domain/accounts.ts';
import type { CorrectionService } from '../domain/corrections.ts';
import type { ReviewLinkService } from '../domain/review-links.ts';
import type { DigitalTwinService } from '../domain/digital-twins.ts';
import type { LoginService } from '../domain/logins.ts';
import type { MindService } from '../domain/minds.ts';
import type { PanelService } from '../domain/panels.ts';
import type { PrivacySettingsService } from '../domain/privacy-settings.ts';
import type { ProfileService } from '../domain/profile.ts';
import type { PsychometricsService } from '../domain/psychometrics.ts';
import type { RateLimits } from '../domain/rate-limits.ts';
import type { SimulationService } from '../domain/simulation.ts';
import type { SimulationHistory } from '../domain/simulations.ts';
import type { SnapshotDetailsService } from '../domain/snapshot-details.ts';
import type { SnapshotService } from '../domain/snapshots.ts';
import type { TagService } from '../domain/tags.ts';
import type { UploadService } from '../domain/uploads.ts';
import type { UsageService } from '../domain/usage.ts';
import type { ExportService } from '../domain/export.ts';
import type { WebhookService } from '../domain/webhooks.ts';

/** What the HTTP layer may call: domain services only, never repositories or adapters. */
export interface Services {
  accounts: AccountService;
  logins: LoginService;
  minds: MindService;
  /** Account-wide tags (a mind's own are set through `minds`). */
  tags: TagService;
  uploads: UploadService;
  snapshots: SnapshotService;
  /** A snapshot's details: counts, transcript turns, psychometrics. */
  snapshotDetails: SnapshotDetailsService;
  /** A mind's digital twins beyond the default one. */
  twins: DigitalTwinService;
  /** Linguistic markers and LLM estimates, per snapshot and per mind. */
  psychometrics: PsychometricsService;
  simulation: SimulationService;
  /** The stored conversations (`/simulations`). */
  simulations: SimulationHistory;
  /** Questionnaires put to many minds (`/panels`). */
  panels: PanelService;
  profiles: ProfileService;
  webhooks: WebhookService;
  /** Per-key request limits of the public API, and a key's running window. */
  rateLimits: RateLimits;
  /** Requests per account and day. */
  usage: UsageService;
  /** A mind's data on request: the files of its export archive. */
  exports: ExportService;
  /** The account's privacy settings: requireConsent, retentionDays (`/account/privacy`). */
  privacy: PrivacySettingsService;
  /** The append-only record of who read, changed or deleted a mind's content (`/audit`). */
  accessLog: AccessLogService;
  /** A mind's corrections: what the person would really say (issue 32). */
  corrections: CorrectionService;
  /** Links through which the person behind a mind reviews and corrects its answers (issue 32). */
  reviewLinks: ReviewLinkService;
}

export interface HttpSettings {
  publicUrl: string;
  maxDirectFileBytes: number;
  maxUploadBytes: number;
  maxWebhookBytes: number;
  logLevel: string;
  /** Fastify's trustProxy (see Config.trustProxy). */
  trustProxy?: boolean | number | string;
  isReady?: () => boolean;
  /** Origins besides this one that the dashboard's upload script may PUT to (S3 presigned URLs), for its CSP. */
  uploadOrigins?: string[];
  /** Where the request log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** Told of every route as it is added (tests derive their route tables from it). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}
