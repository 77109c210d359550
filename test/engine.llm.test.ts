/**
 * mind-reasoner-pro against a local server that speaks the OpenAI chat-completions protocol:
 * what the prompt carries, how the structured answer is mapped, and the failure paths.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { blobOf, failure, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { FULL_CONSENT } from '../testkit/consent.ts';
import { startLlmStandIn, type LlmStandIn, type ProviderRequest } from '../testkit/llm-provider.ts';

type Mode = 'ok' | 'fail' | 'hang';

let mode: Mode = 'ok';
let provider: LlmStandIn;
let received: ProviderRequest[] = [];
let srv: Service;
let sdk: TestSdk;

const ANSWER = {
  thinking: 'They would weigh focus against visibility.',
  feeling: 'Relaxed about it.',
  saying: "Remote, without question. I'm far more productive at home.",
  acting: 'They would keep working from home and go in once a week.',
  confidence: 0.8,
};
const REFLECTIONS = {
  psychologist: 'Values autonomy and routine.',
  behaviouralEconomist: 'Weighs long-term learning over short-term security.',
  politicalScientist: 'Believes companies owe the commons.',
  demographer: 'A mid-career software engineer.',
};

before(async () => {
  provider = await startLlmStandIn((r) =>
    // 'fail': as OpenAI does, the error says when to retry (now, rather than after the SDK's default 2 s backoff);
    // 'hang': never answers, so the client's time limit fires.
    mode === 'hang' ? 'hang' : mode === 'fail' ? { status: 500 } : { json: r.schemaName === 'reflections' ? REFLECTIONS : ANSWER },
  );
  received = provider.requests;
  srv = await startService(
    provider.env({
      LLM_MAX_RETRIES: '1',
      // Above the SDK's fixed 2 s backoff before retrying a refused connection, which must fit in it (the refused-connection test).
      LLM_TIMEOUT_MS: '3000',
    }),
  );
  sdk = srv.sdk();
});
after(async () => {
  await srv?.close();
  await provider.close();
});

const interview = sampleInterview();
const interviewerText = interview.filter((t) => t.speaker !== 'Sam Okafor').map((t) => t.text);
let mindId = '';

describe('mind-reasoner-pro with an LLM configured', () => {
  it('writes the four expert reflections when the snapshot is processed', async () => {
    mindId = (await sdk.minds.create({ name: 'Sam Okafor', consent: FULL_CONSENT })).mind.id;
    const r = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(interview)), fileName: 'talk.vtt' });
    const status = await waitFor(sdk, mindId, r.mindAssessmentId);
    assert.equal(status.status, 'completed');
    const reflection = received.find((x) => x.schemaName === 'reflections');
    assert.ok(reflection, 'a reflections request was sent');
    assert.match(reflection.system, /psychologist/);
    assert.match(reflection.user, /I never merge a pull request without a test/);
    const models = await sdk.models.list();
    assert.equal(models.find((m) => m.id === 'mind-reasoner-pro')?.available, true);
  });

  it('sends profile, reflections, the retrieved passages and the transcript; maps the structured answer; evidence is the passages', async () => {
    received.length = 0;
    const r = await sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: 'Would you go back to an office full time?' } });
    assert.equal(sdk.last?.status, 200);
    assert.equal(r.model, 'mind-reasoner-pro');
    assert.deepEqual(r.analysis, { thinking: ANSWER.thinking, feeling: ANSWER.feeling, saying: ANSWER.saying, acting: ANSWER.acting });
    assert.equal(r.message, ANSWER.saying);
    assert.equal(r.confidence, 0.8);
    const sent = received.find((x) => x.schemaName === 'simulation');
    assert.ok(sent, 'a simulation request was sent');
    assert.equal(sent.body.model, 'test-model');
    assert.match(sent.system, /Sam Okafor/);
    assert.match(sent.user, /# Profile of Sam Okafor/);
    assert.match(sent.user, /\[psychologist\] Values autonomy and routine\./);
    assert.match(sent.user, /Would you go back to an office full time\?/);
    assert.match(sent.user, /offices are built for visibility, not for focus/);
    // The passages the offline retrieval picked lead the prompt, best first, before the rest of the transcript.
    const passages = sent.user.slice(sent.user.indexOf('bears most on this scenario'), sent.user.indexOf('# Everything else Sam Okafor said'));
    assert.match(passages, /^bears most on this scenario \(best first\)\n\n\[P1\] \(answering: "[^"]+"\) Remote, without question\./);
    assert.equal(r.evidence[0]?.text.startsWith('Remote, without question.'), true);
    assert.ok(r.evidence.length > 0);
    for (const e of r.evidence) {
      assert.ok(sent.user.includes(e.text), `evidence was sent: ${e.text}`);
      assert.ok(!interviewerText.some((q) => q.includes(e.text)), `evidence is the person's: ${e.text}`);
    }
  });

  it('a provider error (HTTP 500) is a 502 llm_error, after bounded retries', async () => {
    mode = 'fail';
    received.length = 0;
    const r = await failure(sdk.simulate({ mindId, scenario: { message: 'Coffee?' } }));
    assert.equal(r.status, 502, r.message);
    assert.equal(r.code, 'LLM_ERROR');
    assert.equal(received.length, 2, 'one try and one retry (LLM_MAX_RETRIES=1)');
  });

  // The provider never answers: only the service's time limit (LLM_TIMEOUT_MS, 3 s) ends the request. The test's own
  // timeout, ten times that, is the deadline for a limit that does not fire; what is asserted is the outcome and the work.
  it('a provider that does not answer in time is a 503 llm_unavailable', { timeout: 30_000 }, async () => {
    mode = 'hang';
    received.length = 0;
    const r = await failure(sdk.simulate({ mindId, scenario: { message: 'Coffee?' } }));
    assert.equal(r.status, 503, r.message);
    assert.equal(r.code, 'LLM_UNAVAILABLE');
    assert.equal(received.length, 1, 'one request, not retried once its time was up');
  });

  it('a provider that refuses connections is a 503 llm_unavailable; standard still answers offline', async () => {
    await provider.close();
    const r = await failure(sdk.simulate({ mindId, scenario: { message: 'Coffee?' } }));
    assert.equal(r.status, 503, r.message);
    assert.equal(r.code, 'LLM_UNAVAILABLE');
    await sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How much coffee do you drink?' } });
    assert.equal(sdk.last?.status, 200);
    mode = 'ok';
    await provider.reopen(); // back for the tests after
  });

  it('reflections failing does not fail the snapshot: it completes without them', async () => {
    mode = 'fail';
    const { mind } = await sdk.minds.create({ name: 'Sam Okafor', consent: FULL_CONSENT });
    const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(interview)), fileName: 'again.vtt' });
    const status = await waitFor(sdk, mind.id, r.mindAssessmentId);
    assert.equal(status.status, 'completed');
    await sdk.minds.profile(mind.id);
    assert.equal(sdk.last?.status, 200);
    mode = 'ok';
  });
});
