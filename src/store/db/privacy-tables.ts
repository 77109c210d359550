/** A mind's redaction mode: its one definition is privacy/kinds.ts. */
export type { RedactionMode } from '../../privacy/kinds.ts';

/** The consent record's values on a mind row (012_privacy). */
export type ConsentStatus = 'granted' | 'withdrawn' | 'unknown';
export type ConsentMethod = 'written' | 'verbal' | 'contract' | 'public-record';
export type ConsentUse = 'simulate' | 'panels' | 'llm';

/** What a withdrawal of consent leaves once the mind and the person's words are erased: no content. */
export interface ConsentWithdrawalsTable {
  mind_id: string;
  account_id: string;
  withdrawn_at: string;
}

/** A mind's third parties' numbers, by the keyed hash of the name (013_redaction): never the name. */
export interface RedactionPeopleTable {
  mind_id: string;
  hash: string;
  number: number;
  created_at: string;
}

/** Append-only (012_privacy's triggers refuse UPDATE, and DELETE of rows younger than the audit retention). */
export interface AccessLogTable {
  id: string;
  at: string;
  account_id: string;
  /** `key:<api key id>`, `user:<account id>` (a dashboard session), `operator` or `system` (a scheduled job). */
  actor: string;
  action: string;
  mind_id: string | null;
  /** The simulation, panel, snapshot or artifact the action was about, when there is one. */
  resource_id: string | null;
  ip: string | null;
}
