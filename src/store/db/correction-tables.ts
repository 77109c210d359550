/** A mind's correction (migration 015_corrections; domain/corrections.ts), as Kysely sees it. */
export interface CorrectionsTable {
  id: string;
  mind_id: string;
  account_id: string;
  /** The scenario corrected (redacted when the mind's redaction is `stored`). */
  scenario: string;
  /** What the person would really say (redacted likewise). */
  answer: string;
  /** The simulation whose turn was corrected, when the correction came from one (it may be deleted since). */
  simulation_id: string | null;
  note: string | null;
  created_at: string;
  /** Who wrote it: `key:<api key id>`, `user:<account id>` (a dashboard session), `review-link:<id>`. */
  created_by: string;
}
