/** Helpers around the typed SDK (@mindsim/sdk) for tests and benchmarks. */
import { ApiError, MindsimClient, type SnapshotStatus } from '@mindsim/sdk';
import { sampleInterview, teamsVtt } from './fixtures.ts';

/** The SDK with the status and headers of its last response kept, for the tests that check them. */
export type TestSdk = MindsimClient & { readonly last: { status: number; headers: Headers } | undefined };

/** The typed SDK for a test: no retries, so a 429 or a 5xx is seen as it is. */
export function testSdk(baseUrl: string, apiKey: string): TestSdk {
  let last: TestSdk['last'];
  const sdk = new MindsimClient({
    baseUrl,
    apiKey,
    maxRetries: 0,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      last = { status: res.status, headers: res.headers };
      return res;
    },
  });
  return Object.defineProperty(sdk, 'last', { get: () => last }) as TestSdk;
}

/** The ApiError a call fails with; anything else (success included) is a test failure. */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`expected an API error, got ${JSON.stringify(outcome)?.slice(0, 300)}`);
}

/** The HTTP status a call answers: 200 when it succeeds, the error's status otherwise. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

/** `snapshots.wait` polling every 20–100 ms (tests wait for seconds, not minutes). */
export function waitFor(sdk: MindsimClient, mindId: string, snapshotId: string, timeoutMs = 30_000): Promise<SnapshotStatus> {
  return sdk.snapshots.wait(mindId, snapshotId, { timeoutMs, intervalMs: 20, maxIntervalMs: 100 });
}

/** A transcript as the Blob `snapshots.create({file})` and `uploads.upload` take. */
export function blobOf(bytes: Buffer | string, type = 'application/octet-stream'): Blob {
  return new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type });
}

/** A mind made from the sample interview (Sam Okafor's words, testkit/fixtures.ts), its snapshot completed; answers its id. */
export async function interviewMind(sdk: MindsimClient, name: string, tags: string[] = []): Promise<string> {
  const { mind } = await sdk.minds.create({ name, tags });
  const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
  const status = await waitFor(sdk, mind.id, r.mindAssessmentId);
  if (status.status !== 'completed') throw new Error(`the snapshot of ${name} ended ${status.status}: ${JSON.stringify(status.error)}`);
  return mind.id;
}
