import type { ColumnType, Generated } from 'kysely';

import type { PanelAnswersTable, PanelUnitsTable, PanelsTable } from './panel-tables.ts';
import type { UsageDailyTable, UsageKeyDailyTable, UsageLatencyBucketsTable, UsageSimulatedTwinsTable } from './usage-tables.ts';
import type { CorrectionsTable, ReviewLinksTable } from './correction-tables.ts';
import type { AccessLogTable, ConsentMethod, ConsentStatus, ConsentWithdrawalsTable, RedactionMode, RedactionPeopleTable } from './privacy-tables.ts';

export type { PanelAnswersTable, PanelUnitsTable, PanelsTable } from './panel-tables.ts';
export type { UsageDailyTable, UsageKeyDailyTable, UsageLatencyBucketsTable, UsageSimulatedTwinsTable } from './usage-tables.ts';
export type { CorrectionsTable, ReviewLinksTable } from './correction-tables.ts';
export type { AccessLogTable, ConsentMethod, ConsentStatus, ConsentUse, ConsentWithdrawalsTable, RedactionMode, RedactionPeopleTable } from './privacy-tables.ts';

/** Table shapes as Kysely sees them (the panel, usage and privacy tables in panel-tables.ts, usage-tables.ts and privacy-tables.ts). Timestamps are ISO 8601 UTC strings (sortable as text). */
export interface AccountsTable {
  id: string;
  email: string;
  tier: 'standard' | 'pro';
  password_hash: string | null;
  created_at: string;
  /** 1: simulate, panels and the LLM engine refuse a mind whose consent does not cover the use (012_privacy). */
  require_consent: ColumnType<number, number | undefined, number>;
  /** Transcripts and simulations older than this many days are erased by the retention job; null keeps them. */
  retention_days: number | null;
  /** The address's skeleton (domain/email.ts emailKey), unique: one account per address that looks the same (014_email_keys). */
  email_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface MindsTable {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  /** Unique per account (006_mind_tags); null only for a row written by a process older than that migration. */
  slug: string | null;
  email: string | null;
  image_url: string | null;
  /** JSON object of the mind's social media links. */
  social_media: string | null;
  scope: ColumnType<'private' | 'public', 'private' | 'public' | undefined, 'private' | 'public'>;
  /** Folded name and email (kernel/name-keys.ts foldKey) that search compares. */
  name_key: string | null;
  email_key: string | null;
  /** The consent record (012_privacy): status, and while granted who gave it, when, how, for what, until when. */
  consent_status: ColumnType<ConsentStatus, ConsentStatus | undefined, ConsentStatus>;
  consent_subject: ColumnType<string | null, string | null | undefined, string | null>;
  consent_obtained_at: ColumnType<string | null, string | null | undefined, string | null>;
  consent_method: ColumnType<ConsentMethod | null, ConsentMethod | null | undefined, ConsentMethod | null>;
  /** JSON array of ConsentUse. */
  consent_scope: ColumnType<string | null, string | null | undefined, string | null>;
  consent_expires_at: ColumnType<string | null, string | null | undefined, string | null>;
  consent_evidence_artifact_id: ColumnType<string | null, string | null | undefined, string | null>;
  consent_withdrawn_at: ColumnType<string | null, string | null | undefined, string | null>;
  redaction: ColumnType<RedactionMode, RedactionMode | undefined, RedactionMode>;
}

/** Account-wide tags, unique per account by their folded name. */
export interface TagsTable {
  id: string;
  account_id: string;
  name: string;
  name_key: string;
  created_at: string;
  updated_at: string;
}

export interface MindTagsTable {
  mind_id: string;
  tag_id: string;
  created_at: string;
}

export interface DigitalTwinsTable {
  id: string;
  mind_id: string;
  account_id: string;
  name: string;
  /** 1 for the twin made with the mind (007_snapshot_management), which cannot be deleted; 0 for twins added later. */
  is_default: number;
  created_at: string;
  updated_at: string;
}

export type ArtifactState = 'awaiting_upload' | 'uploading' | 'uploaded';

export interface ArtifactsTable {
  id: string;
  mind_id: string;
  account_id: string;
  file_name: string;
  content_type: string | null;
  state: ArtifactState;
  size_bytes: number | null;
  blob_key: string;
  upload_expires_at: string | null;
  uploaded_at: string | null;
  created_at: string;
}

export type SnapshotState = 'pending' | 'processing' | 'completed' | 'failed';

export interface SnapshotsTable {
  id: string;
  mind_id: string;
  account_id: string;
  artifact_id: string;
  digital_twin_id: string | null;
  speaker: string | null;
  status: SnapshotState;
  error_code: string | null;
  error_message: string | null;
  file_kind: string | null;
  person: string | null;
  memory_count: number | null;
  /** The person's word tokens in the snapshot's memories, once completed (006_mind_tags). */
  token_count: number | null;
  /** JSON of the leave-some-out self-check (see engines/fidelity-check.ts), null when too few Q/A pairs. */
  fidelity: string | null;
  /** Why the expert reflections are missing although an LLM is configured (null when written or not wanted). */
  reflections_error: string | null;
  /** When the conversation happened, YYYY-MM-DD (007_snapshot_management): given at creation, else the creation day. */
  mindset_date: string;
  created_at: string;
  /** The last change: a move, a link or an unlink. */
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface MemoriesTable {
  id: Generated<number>;
  snapshot_id: string;
  mind_id: string;
  seq: number;
  speaker: string | null;
  text: string;
  start_s: number | null;
  end_s: number | null;
  page: number | null;
  question: string | null;
}

/** A completed snapshot's passages and their encoder vectors (011_snapshot_passages). */
export interface SnapshotPassagesTable {
  snapshot_id: string;
  mind_id: string;
  encoder: string;
  dimensions: number;
  /** Int32 pairs: each passage's first and last seq. */
  spans: Uint8Array;
  /** Int8, passages × dimensions. */
  vectors: Uint8Array;
  /** Float32, one per passage. */
  scales: Uint8Array;
  created_at: string;
}

export interface SnapshotProfilesTable {
  snapshot_id: string;
  mind_id: string;
  /** JSON of a SnapshotProfile (memory/profile-types.ts). */
  profile: string;
  created_at: string;
}

export interface SnapshotReflectionsTable {
  snapshot_id: string;
  mind_id: string;
  expert: string;
  text: string;
  model: string;
  created_at: string;
}

export interface SnapshotTranscriptsTable {
  snapshot_id: string;
  mind_id: string;
  /** JSON of the parsed turns (memory/transcript-turns.ts), bounded in size. */
  turns: string;
  /** 1 when turns beyond the bound were left out. */
  truncated: number;
  created_at: string;
}

export interface SnapshotPsychometricsTable {
  snapshot_id: string;
  mind_id: string;
  /** JSON of the linguistic-marker tallies (memory/linguistic-markers.ts). */
  markers: string;
  /** JSON of the LLM's estimates (engines/llm-psychometrics.ts); null without an LLM or when they failed. */
  estimates: string | null;
  estimates_model: string | null;
  /** Why the estimates are missing although an LLM is configured. */
  estimates_error: string | null;
  created_at: string;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  state: JobState;
  run_at: string;
  attempts: number;
  max_attempts: number;
  lease_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** Jobs of one group (a snapshot's job: its account) take turns with other groups' (005_job_groups). */
  group_key: string | null;
  /** When the job was last claimed. */
  claimed_at: string | null;
}

export interface WebhookCredentialsTable {
  id: string;
  account_id: string;
  username: string;
  password_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface WebhookEventsTable {
  id: string;
  account_id: string;
  received_at: string;
  payload: string;
}

export interface SessionsTable {
  id_hash: string;
  account_id: string | null;
  /** JSON of the session object as @fastify/session keeps it. */
  data: string;
  expires_at: string;
  created_at: string;
}

export interface ServiceSettingsTable {
  key: string;
  value: string;
}

export interface RateLimitWindowsTable {
  key: string;
  hits: number;
  /** Unix milliseconds at which the window ends. */
  reset_at: number;
}

export interface SimulationsTable {
  id: string;
  account_id: string;
  mind_id: string;
  digital_twin_id: string | null;
  mind_assessment_id: string | null;
  title: string;
  model: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  error_code: string | null;
  error_message: string | null;
  message_count: number;
  created_at: string;
  updated_at: string;
}

export interface SimulationMessagesTable {
  id: string;
  simulation_id: string;
  account_id: string;
  mind_id: string;
  seq: number;
  role: 'user' | 'assistant';
  /** JSON of the message's content: {text, analysis?, confidence?, evidence?}. */
  content: string;
  created_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  minds: MindsTable;
  digital_twins: DigitalTwinsTable;
  tags: TagsTable;
  mind_tags: MindTagsTable;
  artifacts: ArtifactsTable;
  snapshots: SnapshotsTable;
  memories: MemoriesTable;
  snapshot_passages: SnapshotPassagesTable;
  snapshot_profiles: SnapshotProfilesTable;
  snapshot_reflections: SnapshotReflectionsTable;
  snapshot_transcripts: SnapshotTranscriptsTable;
  snapshot_psychometrics: SnapshotPsychometricsTable;
  jobs: JobsTable;
  webhook_credentials: WebhookCredentialsTable;
  webhook_events: WebhookEventsTable;
  service_settings: ServiceSettingsTable;
  usage_daily: UsageDailyTable;
  usage_key_daily: UsageKeyDailyTable;
  usage_latency_buckets: UsageLatencyBucketsTable;
  usage_simulated_twins: UsageSimulatedTwinsTable;
  rate_limit_windows: RateLimitWindowsTable;
  sessions: SessionsTable;
  consent_withdrawals: ConsentWithdrawalsTable;
  access_log: AccessLogTable;
  redaction_people: RedactionPeopleTable;
  simulations: SimulationsTable;
  simulation_messages: SimulationMessagesTable;
  panels: PanelsTable;
  panel_units: PanelUnitsTable;
  panel_answers: PanelAnswersTable;
  corrections: CorrectionsTable;
  review_links: ReviewLinksTable;
}
