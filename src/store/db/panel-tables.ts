/** The panel tables (migration 010_panels; domain/panel.ts), as Kysely sees them. */
/** A questionnaire put to many minds (domain/panel.ts); questions, selection and skipped minds as JSON. */
export interface PanelsTable {
  id: string;
  account_id: string;
  name: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  model: string;
  selection: string;
  questions: string;
  skipped: string;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One mind's share of a panel: a job of its own; `seq` orders the minds (and keys their answers). */
export interface PanelUnitsTable {
  id: string;
  panel_id: string;
  account_id: string;
  mind_id: string;
  mind_name: string;
  seq: number;
  /** JSON: the panel's selection tags this mind carries. */
  tags: string;
  status: 'pending' | 'done' | 'failed';
  /** JSON: the completed snapshots the answers drew on. */
  snapshot_ids: string | null;
  error_message: string | null;
  finished_at: string | null;
}

/** One mind's answer to one question; `choices` and `evidence` JSON. */
export interface PanelAnswersTable {
  panel_id: string;
  unit_seq: number;
  question_index: number;
  account_id: string;
  mind_id: string;
  status: 'answered' | 'no_evidence';
  choices: string;
  value: number | null;
  saying: string;
  confidence: number;
  evidence: string;
  created_at: string;
}
