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

/** A review link of a mind (migration 016_review_links; domain/review-links.ts): only its token's hash is kept. */
export interface ReviewLinksTable {
  id: string;
  mind_id: string;
  account_id: string;
  /** SHA-256 (hex) of the link's random token; the token is shown once and never stored. */
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}
