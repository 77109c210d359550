/** The usage meter's tables (migrations 004 and 009; domain/usage.ts), as Kysely sees them. */
export interface UsageDailyTable {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  requests: number;
}

/** One API key's requests and work on one UTC day (migration 009): counts add up across flushes and processes. */
export interface UsageKeyDailyTable {
  api_key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  account_id: string;
  /** Responses with a status below 400. */
  success_count: number;
  /** Responses with a status of 400 or more. */
  error_count: number;
  latency_sum_ms: number;
  /** Null while the day has no response counted yet (only work, e.g. a simulation whose response is still on its way). */
  latency_min_ms: number | null;
  latency_max_ms: number | null;
  simulations: number;
  snapshots_created: number;
  psychometrics_requests: number;
}

/** A key's responses per UTC day and latency bucket (domain/latency-histogram.ts). */
export interface UsageLatencyBucketsTable {
  api_key_id: string;
  day: string;
  account_id: string;
  bucket: number;
  count: number;
}

/** The digital twins a key simulated on a UTC day, once each. */
export interface UsageSimulatedTwinsTable {
  api_key_id: string;
  day: string;
  account_id: string;
  digital_twin_id: string;
}
