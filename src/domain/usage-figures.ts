import { invalid } from '../kernel/errors.ts';
import type { KeyDayRow, KeyUsageTotals } from '../store/db/repos/usage.ts';
import { addToHistogram, latencyBucket, quantiles } from './latency-histogram.ts';

/** What the meter counts of one API key: additive figures (buckets and twin sets merge too). */
export interface UsageFigures {
  successCount: number;
  errorCount: number;
  latencySumMs: number;
  latencyMinMs: number | null;
  latencyMaxMs: number | null;
  latencyBuckets: Map<number, number>;
  simulations: number;
  snapshotsCreated: number;
  psychometricsRequests: number;
  simulatedTwins: Set<string>;
}

/** One key's figures of one UTC day, as gathered in memory between flushes. */
export interface KeyDayTally extends UsageFigures {
  apiKeyId: string;
  accountId: string;
  day: string;
}

/** One response of the public API (REST or /mcp) as the meter counts it. */
export interface MeteredResponse {
  apiKeyId: string;
  statusCode: number;
  latencyMs: number;
  /** The route's path contains /psychometrics. */
  psychometrics: boolean;
}

export const noFigures = (): UsageFigures => ({
  successCount: 0,
  errorCount: 0,
  latencySumMs: 0,
  latencyMinMs: null,
  latencyMaxMs: null,
  latencyBuckets: new Map(),
  simulations: 0,
  snapshotsCreated: 0,
  psychometricsRequests: 0,
  simulatedTwins: new Set(),
});

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

export function countResponse(f: UsageFigures, r: MeteredResponse): void {
  if (r.statusCode < 400) f.successCount++;
  else f.errorCount++;
  const ms = Math.max(0, r.latencyMs);
  f.latencySumMs += ms;
  f.latencyMinMs = lower(f.latencyMinMs, ms);
  f.latencyMaxMs = higher(f.latencyMaxMs, ms);
  addToHistogram(f.latencyBuckets, latencyBucket(ms));
  if (r.psychometrics) f.psychometricsRequests++;
}

/** Adds `from` to `into`. */
export function mergeFigures(into: UsageFigures, from: UsageFigures): void {
  into.successCount += from.successCount;
  into.errorCount += from.errorCount;
  into.latencySumMs += from.latencySumMs;
  into.latencyMinMs = lower(into.latencyMinMs, from.latencyMinMs);
  into.latencyMaxMs = higher(into.latencyMaxMs, from.latencyMaxMs);
  for (const [b, n] of from.latencyBuckets) addToHistogram(into.latencyBuckets, b, n);
  into.simulations += from.simulations;
  into.snapshotsCreated += from.snapshotsCreated;
  into.psychometricsRequests += from.psychometricsRequests;
  for (const t of from.simulatedTwins) into.simulatedTwins.add(t);
}

export function figuresOfTotals(t: KeyUsageTotals): UsageFigures {
  return {
    ...t,
    latencyBuckets: new Map(t.latencyBuckets.map((b) => [b.bucket, b.count])),
    simulatedTwins: new Set(t.simulatedTwins),
  };
}

export function rowOfTally(t: KeyDayTally): KeyDayRow {
  return {
    api_key_id: t.apiKeyId,
    day: t.day,
    account_id: t.accountId,
    success_count: t.successCount,
    error_count: t.errorCount,
    latency_sum_ms: t.latencySumMs,
    latency_min_ms: t.latencyMinMs,
    latency_max_ms: t.latencyMaxMs,
    simulations: t.simulations,
    snapshots_created: t.snapshotsCreated,
    psychometrics_requests: t.psychometricsRequests,
    latencyBuckets: [...t.latencyBuckets].map(([bucket, count]) => ({ bucket, count })),
    simulatedTwins: [...t.simulatedTwins],
  };
}

/** A window of whole UTC days, both ends included. */
export interface UsageWindow {
  from: string;
  to: string;
}

export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;
const DAY_MS = 24 * 3600 * 1000;
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function dayMs(field: 'from' | 'to', day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms) || dayOf(ms) !== day) {
    throw invalid('invalid_date', `${field} must be a calendar date as YYYY-MM-DD.`, { field, value: day });
  }
  return ms;
}

/**
 * The window a usage request names: `to` defaults to today (UTC), `from` to 29 days before `to`
 * (30 days in all). `from` after `to`, or more than 366 days, is a 400.
 */
export function usageWindow(q: { from?: string; to?: string }, now: Date): UsageWindow {
  const to = q.to === undefined ? Date.parse(dayOf(now.getTime())) : dayMs('to', q.to);
  const from = q.from === undefined ? to - (DEFAULT_USAGE_DAYS - 1) * DAY_MS : dayMs('from', q.from);
  if (from > to) throw invalid('invalid_date_range', 'from must not be after to.', { from: dayOf(from), to: dayOf(to) });
  const days = Math.round((to - from) / DAY_MS) + 1;
  if (days > MAX_USAGE_DAYS) {
    throw invalid('date_range_too_long', `The window is ${days} days; ask for at most ${MAX_USAGE_DAYS} at a time.`, { days, maxDays: MAX_USAGE_DAYS });
  }
  return { from: dayOf(from), to: dayOf(to) };
}

/** The usage of an API key over a window, in the hosted service's field names. */
export interface UsageReport {
  from: string;
  to: string;
  successCount: number;
  errorCount: number;
  totalCount: number;
  averageLatency: number;
  maxLatency: number;
  minLatency: number;
  medianLatency: number;
  p90Latency: number;
  p95Latency: number;
  p99Latency: number;
  p999Latency: number;
  numberOfSimulations: number;
  numberOfSimulatedTwins: number;
  numberOfSnapshotsCreated: number;
  numberOfSnapshotsTotal: number;
  numberOfCoresReprocessed: number;
  numberOfPsychometricsRequests: number;
}

/** Milliseconds to the hundredth. */
const ms2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The report of merged figures. Latencies are milliseconds (two decimals), 0 when nothing was
 * answered in the window; percentiles are within LATENCY_ACCURACY (2%) of the true ones, minimum,
 * maximum and average exact. This service has no "cores" to reprocess: numberOfCoresReprocessed is 0.
 */
export function reportOf(f: UsageFigures, window: UsageWindow, snapshotsTotal: number): UsageReport {
  const total = f.successCount + f.errorCount;
  const min = f.latencyMinMs ?? 0;
  const max = f.latencyMaxMs ?? 0;
  const [p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0] = quantiles(f.latencyBuckets, [0.5, 0.9, 0.95, 0.99, 0.999], min, max);
  return {
    from: window.from,
    to: window.to,
    successCount: f.successCount,
    errorCount: f.errorCount,
    totalCount: total,
    averageLatency: total ? ms2(f.latencySumMs / total) : 0,
    maxLatency: ms2(max),
    minLatency: ms2(min),
    medianLatency: ms2(p50),
    p90Latency: ms2(p90),
    p95Latency: ms2(p95),
    p99Latency: ms2(p99),
    p999Latency: ms2(p999),
    numberOfSimulations: f.simulations,
    numberOfSimulatedTwins: f.simulatedTwins.size,
    numberOfSnapshotsCreated: f.snapshotsCreated,
    numberOfSnapshotsTotal: snapshotsTotal,
    numberOfCoresReprocessed: 0,
    numberOfPsychometricsRequests: f.psychometricsRequests,
  };
}
