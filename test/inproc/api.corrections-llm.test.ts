/**
 * Corrections in mind-reasoner-pro's prompt (issue 32), against the LLM provider stand-in: a
 * correction that answers the scenario comes first in the prompt, marked as the person's own and as
 * winning over the transcript, and first in the evidence; with `outbound` redaction it is redacted
 * in the prompt like the transcript; an unrelated scenario's prompt has no corrections.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, fileForm, waitForSnapshot, type Client } from '../../testkit/http.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { FULL_CONSENT } from '../../testkit/consent.ts';
import { startLlmStandIn, type LlmStandIn, type ProviderRequest } from '../../testkit/llm-provider.ts';

const ANSWER = { thinking: 't', feeling: 'f', saying: 'One cup, decaf.', acting: 'a', confidence: 0.8 };
const REFLECTIONS = { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' };
const CORRECTED = 'One cup a morning, decaf only. Ask my doctor at greta.hansen@example.com why.';

let provider: LlmStandIn;
let received: ProviderRequest[] = [];
let srv: Service;
let api: Client;
let mindId = '';

before(async () => {
  provider = await startLlmStandIn((r) => ({ json: r.schemaName === 'reflections' ? REFLECTIONS : ANSWER }));
  received = provider.requests;
  srv = await startService(provider.env({ LLM_TIMEOUT_MS: '5000' }));
  api = client(srv.api, srv.apiKey);
  mindId = (await api.post('/minds', { name: 'Sam Okafor', consent: FULL_CONSENT, redaction: 'outbound' })).body.mind.id;
  const up = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt'));
  assert.equal((await waitForSnapshot(api, mindId, up.body.mindAssessmentId)).status, 'completed');
});
after(async () => {
  await srv?.close();
  await provider?.close();
});

const lastPrompt = () => received.filter((r) => r.schemaName === 'simulation').at(-1)?.raw ?? '';

async function ask(message: string) {
  const r = await api.post('/simulate', { mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { evidence: Array<Record<string, unknown>> };
}

describe("corrections in mind-reasoner-pro's prompt", () => {
  it('come first, marked as the person own and over the transcript, redacted outbound; not for an unrelated scenario', async () => {
    const created = await api.post(`/minds/${mindId}/corrections`, { scenario: 'How much coffee do you drink a day?', answer: CORRECTED });
    assert.equal(created.status, 201);
    assert.equal(created.body.correction.answer, CORRECTED, 'outbound keeps what is stored as written');

    const answered = await ask('How many cups of coffee do you drink in a day?');
    const prompt = lastPrompt();
    const header = prompt.indexOf("Sam Okafor's own corrections");
    assert.ok(header >= 0, 'the corrections section');
    assert.ok(header < prompt.indexOf('# Profile of'), 'before the profile and the transcript');
    assert.match(prompt, /win over everything below, the transcript included/);
    assert.match(prompt, /\[C1\] Asked \\"How much coffee do you drink a day\?\\", they would really say: One cup a morning, decaf only/);
    assert.ok(!prompt.includes('greta.hansen@example.com'), 'the correction is redacted in the prompt');
    assert.match(prompt, /\[email\]/);
    assert.deepEqual([answered.evidence[0]?.source, answered.evidence[0]?.correctionId], ['correction', created.body.correction.id]);
    assert.ok(answered.evidence.slice(1).every((e) => e.source === 'transcript'));

    const unrelated = await ask('How do you deal with burnout?');
    assert.ok(!lastPrompt().includes('own corrections'), 'no corrections for an unrelated scenario');
    assert.ok(unrelated.evidence.every((e) => e.source === 'transcript'));
  });
});
