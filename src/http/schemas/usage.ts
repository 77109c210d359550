import { z } from 'zod';

const Day = z.iso.date().describe('A UTC day, YYYY-MM-DD');

export const UsageQuery = z.object({
  from: Day.optional().describe('First UTC day, included (default: 29 days before `to`)'),
  to: Day.optional().describe('Last UTC day, included (default: today)'),
});

const count = (what: string) => z.number().int().describe(what);
const latency = (what: string) => z.number().describe(`${what}, in milliseconds (0 when no request was answered in the window)`);

/** The calling API key's usage over a window of UTC days, in the hosted service's field names. */
export const UsageResponse = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    successCount: count('Responses with a status below 400'),
    errorCount: count('Responses with a status of 400 or more'),
    totalCount: count('All responses (successCount + errorCount)'),
    averageLatency: latency('Mean latency (exact)'),
    maxLatency: latency('Largest latency (exact)'),
    minLatency: latency('Smallest latency (exact)'),
    medianLatency: latency('Median latency (within 2%)'),
    p90Latency: latency('90th percentile (within 2%)'),
    p95Latency: latency('95th percentile (within 2%)'),
    p99Latency: latency('99th percentile (within 2%)'),
    p999Latency: latency('99.9th percentile (within 2%)'),
    numberOfSimulations: count('Simulations run with this key (REST and MCP)'),
    numberOfSimulatedTwins: count('Distinct digital twins simulated with this key'),
    numberOfSnapshotsCreated: count('Snapshots created with this key'),
    numberOfSnapshotsTotal: count("Snapshots the key's account has now, whenever and however created"),
    numberOfCoresReprocessed: count('Always 0: this service has no cores to reprocess'),
    numberOfPsychometricsRequests: count('Requests to psychometrics routes'),
  })
  .meta({ id: 'Usage' });
