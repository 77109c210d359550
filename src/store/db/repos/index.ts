import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { AccessLogRepo } from './access-log.ts';
import { AccountsRepo, ApiKeysRepo } from './accounts.ts';
import { ArtifactsRepo } from './artifacts.ts';
import { ConsentRepo } from './consent.ts';
import { CorrectionsRepo } from './corrections.ts';
import { ExportRepo } from './export.ts';
import { RetentionRepo } from './retention.ts';
import { ReviewLinksRepo } from './review-links.ts';
import { MindDetailsRepo } from './mind-details.ts';
import { DigitalTwinsRepo } from './digital-twins.ts';
import { MindsRepo } from './minds.ts';
import { PanelAnswersRepo } from './panel-answers.ts';
import { PanelsRepo } from './panels.ts';
import { PassagesRepo } from './passages.ts';
import { ProfilesRepo } from './profiles.ts';
import { RedactionPeopleRepo } from './redaction-people.ts';
import { PsychometricsRepo } from './psychometrics.ts';
import { SessionsRepo } from './sessions.ts';
import { SettingsRepo } from './settings.ts';
import { SimulationsRepo } from './simulations.ts';
import { SnapshotsRepo } from './snapshots.ts';
import { TagsRepo } from './tags.ts';
import { TranscriptsRepo } from './transcripts.ts';
import { RateLimitWindowsRepo, UsageRepo } from './usage.ts';
import { WebhooksRepo } from './webhooks.ts';

/** Every repository, bound to one connection or transaction. */
export interface Repos {
  accounts: AccountsRepo;
  apiKeys: ApiKeysRepo;
  minds: MindsRepo;
  mindDetails: MindDetailsRepo;
  tags: TagsRepo;
  artifacts: ArtifactsRepo;
  snapshots: SnapshotsRepo;
  passages: PassagesRepo;
  profiles: ProfilesRepo;
  twins: DigitalTwinsRepo;
  transcripts: TranscriptsRepo;
  psychometrics: PsychometricsRepo;
  webhooks: WebhooksRepo;
  settings: SettingsRepo;
  usage: UsageRepo;
  rateLimitWindows: RateLimitWindowsRepo;
  sessions: SessionsRepo;
  simulations: SimulationsRepo;
  panels: PanelsRepo;
  panelAnswers: PanelAnswersRepo;
  accessLog: AccessLogRepo;
  /** Each mind's third parties' numbers for redaction, by the keyed hash of the name. */
  redactionPeople: RedactionPeopleRepo;
  /** Minds' consent records, withdrawals, and accounts' privacy settings. */
  consent: ConsentRepo;
  /** The reads of a mind's export (everything stored about it, in pages). */
  exports: ExportRepo;
  /** What the retention sweep finds past an account's retention period. */
  retention: RetentionRepo;
  /** Minds' corrections: what the person would really say (issue 32). */
  corrections: CorrectionsRepo;
  /** Review links: the person reads and corrects their twin's answers without an account (issue 32). */
  reviewLinks: ReviewLinksRepo;
}

export function makeRepos(db: Kysely<Database>): Repos {
  return {
    accounts: new AccountsRepo(db),
    apiKeys: new ApiKeysRepo(db),
    minds: new MindsRepo(db),
    mindDetails: new MindDetailsRepo(db),
    tags: new TagsRepo(db),
    artifacts: new ArtifactsRepo(db),
    snapshots: new SnapshotsRepo(db),
    passages: new PassagesRepo(db),
    profiles: new ProfilesRepo(db),
    twins: new DigitalTwinsRepo(db),
    transcripts: new TranscriptsRepo(db),
    psychometrics: new PsychometricsRepo(db),
    webhooks: new WebhooksRepo(db),
    settings: new SettingsRepo(db),
    usage: new UsageRepo(db),
    rateLimitWindows: new RateLimitWindowsRepo(db),
    sessions: new SessionsRepo(db),
    simulations: new SimulationsRepo(db),
    panels: new PanelsRepo(db),
    panelAnswers: new PanelAnswersRepo(db),
    accessLog: new AccessLogRepo(db),
    redactionPeople: new RedactionPeopleRepo(db),
    consent: new ConsentRepo(db),
    exports: new ExportRepo(db),
    retention: new RetentionRepo(db),
    corrections: new CorrectionsRepo(db),
    reviewLinks: new ReviewLinksRepo(db),
  };
}
