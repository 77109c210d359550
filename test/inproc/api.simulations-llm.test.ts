/**
 * Conversations with mind-reasoner-pro against a local server speaking the OpenAI chat-completions
 * protocol (plain and streamed): the earlier turns in the prompt, `saying` streamed token by token
 * as `delta` events, a provider failure as the `error` event, and a background turn that is busy,
 * then failed, then continued.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SimulationEvent } from '@mindsim/sdk';
import { client, type Client } from '../../testkit/http.ts';
import { blobOf, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { FULL_CONSENT } from '../../testkit/consent.ts';
import { startLlmStandIn, type LlmStandIn, type ProviderAnswer, type ProviderRequest } from '../../testkit/llm-provider.ts';
import { gate, waitUntil } from '../../testkit/wait.ts';

type Mode = 'ok' | 'fail' | 'hang';

let mode: Mode = 'ok';
let provider: LlmStandIn;
let received: ProviderRequest[] = [];
let srv: Service;
let sdk: TestSdk;
let api: Client;
let mindId = '';

const ANSWER = {
  thinking: 'They would weigh focus against visibility.',
  feeling: 'Relaxed about it.',
  saying: "Remote, without question. I'm far more productive at home, and I go in once a week.",
  acting: 'They would keep working from home.',
  confidence: 0.8,
};
/** Typed-answer requests being answered now, and the most at once; they are held until `release` opens (open unless a test closes it). */
const inFlight = { now: 0, max: 0, release: gate(true) };
/** The provider's typed answers (panels): a choice, a number, or an explicit no_evidence, by the question in the prompt. */
function typedReply(prompt: string): Record<string, unknown> {
  const common = { saying: 'Remote, without question.', confidence: 0.7, passages: [0] };
  if (/football/i.test(prompt)) return { choice: 'no_evidence', ...common, confidence: 0 };
  if (/cups of coffee/i.test(prompt)) return { value: 2, noEvidence: false, ...common };
  return { choice: 'Remote', ...common };
}
const REFLECTIONS = { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' };
const PRO = 'mind-reasoner-pro';

/** Simulations answered (streamed in chunks when asked), failed or left hanging by `mode`; typed answers after a little latency. */
function reply(r: ProviderRequest): ProviderAnswer {
  if (r.schemaName === 'simulation' && mode === 'hang') return 'hang';
  if (r.schemaName === 'simulation' && mode === 'fail') return { status: 500 };
  if (r.schemaName === 'typed_answer') {
    // Held until the test releases them, so questions asked at once overlap here.
    inFlight.now++;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    return { json: typedReply(r.user), heldUntil: inFlight.release.opened.then(() => void inFlight.now--) };
  }
  return { json: r.schemaName === 'reflections' ? REFLECTIONS : ANSWER };
}

before(async () => {
  provider = await startLlmStandIn(reply);
  received = provider.requests;
  srv = await startService(provider.env({ LLM_TIMEOUT_MS: '1500' }));
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  mindId = (await sdk.minds.create({ name: 'Sam Okafor', consent: FULL_CONSENT })).mind.id;
  const r = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' });
  assert.equal((await waitFor(sdk, mindId, r.mindAssessmentId)).status, 'completed');
});
after(async () => {
  await srv?.close();
  await provider.close();
});

const lastPrompt = () => received.filter((r) => r.schemaName === 'simulation').at(-1);
const ask = (message: string, extra: Record<string, unknown> = {}) => ({ mindId, selectedSimulationModel: PRO, scenario: { message }, ...extra });

async function collect(events: AsyncIterable<SimulationEvent>): Promise<SimulationEvent[]> {
  const all: SimulationEvent[] = [];
  for await (const e of events) all.push(e);
  return all;
}

describe('a panel answered by mind-reasoner-pro', () => {
  it('asks the model once per mind and question, the questions at once, and stores its typed answers in order (the enum schema itself: engine.llm-questions)', async () => {
    received.length = 0;
    inFlight.release = gate();
    const { panel } = await sdk.panels.create({
      mindIds: [mindId],
      selectedSimulationModel: PRO,
      questions: [
        { id: 'where', text: 'Do you prefer working remotely or in an office?', type: 'single', options: ['Remote', 'Office'] },
        { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'number' },
        { id: 'football', text: 'Which football club do you support?', type: 'single', options: ['Arsenal', 'Liverpool'] },
      ],
    });
    assert.equal(panel.model, PRO);
    // The provider answers none until all three are asked: asked one after another, they never would be.
    await waitUntil(() => inFlight.now === 3, { what: () => `the three questions asked at once (PANEL_LLM_CONCURRENCY defaults to 4); ${inFlight.now} in flight` });
    inFlight.release.open();
    const done = await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 20_000 });
    assert.equal(done.status, 'completed');
    assert.equal(received.filter((r) => r.schemaName === 'typed_answer').length, 3);
    assert.equal(inFlight.max, 3, 'the three questions were asked at once (PANEL_LLM_CONCURRENCY defaults to 4)');
    const { answers } = await sdk.panels.answers(panel.id);
    assert.deepEqual(
      answers.map((a) => [a.questionId, a.status, a.choices, a.value]),
      [['where', 'answered', ['Remote'], null], ['coffee', 'answered', [], 2], ['football', 'no_evidence', [], null]],
    );
    assert.equal(done.results?.find((r) => r.questionId === 'football')?.noEvidence, 1);
  });
});

describe('mind-reasoner-pro in a conversation', () => {
  it('the prompt of a follow-up carries the earlier turns, oldest first, before the scenario', async () => {
    const first = await sdk.simulate(ask('Do you prefer working remotely or in an office?'));
    assert.equal(first.model, PRO);
    assert.doesNotMatch(lastPrompt()?.user ?? '', /# The conversation so far/);
    await sdk.simulate(ask('What would you do first?', { conversationId: first.conversationId }));
    const prompt = lastPrompt()?.user ?? '';
    const history = prompt.slice(prompt.indexOf('# The conversation so far'), prompt.indexOf('# Scenario'));
    assert.match(history, /^# The conversation so far \(oldest first; the scenario below continues it\)\n\nUser: Do you prefer working remotely or in an office\?\nSam Okafor: Remote, without question\. I'm far more productive at home/);
    assert.match(prompt.slice(prompt.indexOf('# Scenario')), /^# Scenario\n\nWhat would you do first\?/);
  });

  it('streams `saying` token by token as delta events, then the result; the turn is stored', async () => {
    received.length = 0;
    const events = await collect(sdk.simulateStream(ask('Would you go back to an office full time?')));
    assert.equal(lastPrompt()?.stream, true, 'the provider was asked to stream');
    const kinds = events.map((e) => e.event);
    assert.deepEqual([kinds[0], kinds[1], kinds.at(-1)], ['start', 'evidence', 'result']);
    const deltas = events.flatMap((e) => (e.event === 'delta' ? [e.data.text] : []));
    assert.ok(deltas.length > 3, `several deltas (${deltas.length})`);
    assert.equal(deltas.join(''), ANSWER.saying);
    const result = events.at(-1);
    assert.ok(result?.event === 'result');
    const { confidence, ...analysis } = ANSWER;
    assert.deepEqual([result.data.message, result.data.analysis, result.data.confidence, result.data.model], [ANSWER.saying, analysis, confidence, PRO]);
    const evidence = events[1];
    assert.deepEqual(evidence?.event === 'evidence' && evidence.data.evidence, result.data.evidence);
    const { messages } = await sdk.simulations.get(result.data.simulationId);
    assert.deepEqual(messages.map((m) => m.content.text), ['Would you go back to an office full time?', ANSWER.saying]);
  });

  it('a provider failure mid-stream is the error event with the error body; nothing is stored', async () => {
    mode = 'fail';
    try {
      const events = await collect(sdk.simulateStream(ask('Coffee?')));
      const last = events.at(-1);
      assert.ok(last?.event === 'error', JSON.stringify(events));
      assert.deepEqual([last.data.status, last.data.code, last.data.error], [502, 'LLM_ERROR', 'Bad Gateway']);
      assert.ok(last.data.requestId);
      const start = events[0];
      assert.ok(start?.event === 'start');
      assert.equal(await statusOf(sdk.simulations.get(start.data.simulationId)), 404);
    } finally {
      mode = 'ok';
    }
  });

  it('a background turn is busy while it runs (409 for another turn), fails with why, and the conversation goes on', async () => {
    mode = 'hang';
    const queued = await sdk.simulate(ask('How do you start your day?', { runInBackground: true }));
    await waitUntil(async () => (await sdk.simulations.get(queued.simulationId)).simulation.status === 'running', { what: 'the background turn running' });
    for (const extra of [{}, { runInBackground: true }, { stream: true }]) {
      const busy = await api.post('/simulate', ask('And then?', { conversationId: queued.conversationId, ...extra }));
      assert.deepEqual([busy.status, busy.body.code], [409, 'SIMULATION_IN_PROGRESS']);
    }
    const detail = await waitUntil(
      async () => {
        const d = await sdk.simulations.get(queued.simulationId);
        return d.simulation.status === 'running' ? null : d;
      },
      { what: 'the hanging turn given up' },
    );
    assert.equal(detail.simulation.status, 'failed');
    assert.equal(detail.simulation.error?.code, 'llm_unavailable');
    assert.deepEqual(detail.messages.map((m) => m.role), ['user']);
    mode = 'ok';
    const next = await sdk.simulate(ask('Do you prefer working remotely?', { conversationId: queued.conversationId }));
    assert.equal(next.simulationId, queued.simulationId);
    const after = await sdk.simulations.get(queued.simulationId);
    assert.deepEqual([after.simulation.status, after.simulation.error, after.simulation.messageCount], ['completed', null, 3]);
  });
});
