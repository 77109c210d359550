/**
 * A snapshot job held mid-processing, for the tests that stop or kill the service during a job
 * (crash.test, shutdown.test). The mind consents to the LLM, so once the worker has read the
 * transcript, analysed it and embedded its passages it asks the LLM stand-in for the snapshot's
 * reflections, before anything is written; the stand-in holds that request as long as `holding`
 * is set. The test kills or stops the process once the request has arrived: the job is then surely
 * mid-way, on any machine, and nothing the test checks races the processing.
 */
import { FULL_CONSENT } from './consent.ts';
import { sampleInterview, teamsVtt } from './fixtures.ts';
import type { Client } from './http.ts';
import { startLlmStandIn, type LlmStandIn } from './llm-provider.ts';
import { gate, waitUntil } from './wait.ts';

const REFLECTIONS = { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' };

export interface HeldJobs {
  provider: LlmStandIn;
  /** The service's LLM settings (environment variables). */
  env: Record<string, string>;
  /** While true, a snapshot's reflections request is held (never answered); set it false before the restart. */
  holding: boolean;
  /** A mind (consenting to the LLM) and its snapshot, created and queued. */
  snapshot(api: Client): Promise<{ mindId: string; id: string }>;
  /** Resolves once the worker has asked for the reflections of a snapshot: it is mid-job, and held there. */
  reached(): Promise<void>;
  close(): Promise<void>;
}

export async function heldJobs(): Promise<HeldJobs> {
  const never = gate();
  const held: HeldJobs = {
    provider: await startLlmStandIn((r) =>
      r.schemaName === 'reflections' ? { json: REFLECTIONS, ...(held.holding ? { heldUntil: never.opened } : {}) } : { json: {} },
    ),
    env: {},
    holding: true,
    async snapshot(api) {
      const mindId = (await api.post('/minds', { name: 'Sam Okafor', consent: FULL_CONSENT })).body.mind.id as string;
      const signed = (await api.get(`/minds/${mindId}/signed-url?fileName=interview.vtt`)).body;
      const put = await fetch(signed.signedUrl, { method: 'PUT', body: teamsVtt(sampleInterview()) });
      if (put.status !== 200) throw new Error(`upload: ${put.status}`);
      const form = new FormData();
      form.append('artifactId', signed.artifactId);
      const snap = await api.post(`/minds/${mindId}/snapshots`, form);
      if (snap.status !== 200) throw new Error(`snapshot: ${snap.status} ${JSON.stringify(snap.body)}`);
      return { mindId, id: snap.body.mindAssessmentId as string };
    },
    reached: async () => void (await waitUntil(() => held.provider.requests.some((r) => r.schemaName === 'reflections'), { what: "the worker's reflections request", timeoutMs: 120_000 })),
    close: () => held.provider.close(),
  };
  held.env = held.provider.env();
  return held;
}
