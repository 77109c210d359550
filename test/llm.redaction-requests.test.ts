/**
 * Every field of every LLM request redacted (issue 30, item 3), read where the provider reads it:
 * a local server speaking the OpenAI protocol (and Anthropic's, whose structured answer is a tool
 * call) records each request body. A value is planted in each field a client writes: the scenario
 * and the conversation so far (simulations: plain, streamed and queued), a panel question's text,
 * its options (which the answer's schema carries as an enum), its likert labels, a number
 * question's unit (in its text; questions have no unit field). With the mind's redaction
 * `outbound`, none reaches the provider, in the prompt or in the schema; the model's answer, given
 * as a redacted option, is stored as the option the client wrote. The values are not in the
 * transcript, so only the field's own redaction can catch them (the transcript's values: llm.redaction.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PanelQuestion } from '@mindsim/sdk';
import { FULL_CONSENT } from '../testkit/consent.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { startLlmStandIn, type LlmStandIn, type ProviderAnswer, type ProviderRequest, type SentSchema } from '../testkit/llm-provider.ts';
import { blobOf, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { waitUntil } from '../testkit/wait.ts';

const V = {
  neighbour: 'Tomasz Kowalczyk',
  sister: 'Priya Raman',
  coach: 'Henrik Nyberg',
  phone: '+44 20 7946 0321',
  phone2: '+44 20 7946 0877',
  email: 'dana.whitfield@proton.me',
  address: '17 Elm Grove, Leeds LS6 2AB',
};
/** Every form of a planted value that must never be seen (as written, and in parts). */
const FORBIDDEN = [...Object.values(V), 'Tomasz', 'Kowalczyk', 'Priya', 'Raman', 'Henrik', 'Nyberg', '7946 0321', '7946 0877', 'dana.whitfield', 'proton.me', 'Elm Grove', 'LS6 2AB'];
const leaks = (text: string) => FORBIDDEN.filter((v) => text.toLowerCase().includes(v.toLowerCase()));

const QUESTIONS: PanelQuestion[] = [
  { id: 'open', type: 'open', text: `What did my neighbour ${V.neighbour} say when you wrote to ${V.email}?` },
  {
    id: 'single',
    type: 'single',
    text: 'Who would you ask for help first?',
    options: [`My neighbour ${V.neighbour}`, `Whoever answers ${V.phone}`, `Whoever reads ${V.email}`, `Someone at ${V.address}`, 'Nobody'],
  },
  { id: 'same', type: 'single', text: 'Which number would you call?', options: [`Call ${V.phone}`, `Call ${V.phone2}`, 'Neither'] },
  { id: 'multiple', type: 'multiple', text: 'Where would you go running?', options: [`Past ${V.address}`, `With my sister ${V.sister}`, 'In the park'] },
  {
    id: 'likert',
    type: 'likert',
    text: 'How often do you take advice?',
    scale: { min: 1, max: 5, labels: [`Never, says my sister ${V.sister}`, 'Rarely', 'Sometimes', 'Often', `Always: I call ${V.phone}`] },
  },
  { id: 'number', type: 'number', text: `How far is it from ${V.address} to your office, in km as my coach ${V.coach} measures them?`, scale: { min: 0, max: 500 } },
];

/** The enum values of the answer's schema that hold `placeholder`, as sent. */
const sentOptions = (schema: SentSchema | undefined, field: 'choice' | 'choices', placeholder: string): string[] => {
  const node = schema?.properties?.[field];
  const values = (field === 'choices' ? node?.items?.enum : node?.enum) ?? [];
  return values.filter((v): v is string => typeof v === 'string' && v.includes(placeholder));
};

/** Answers as a model would, from what it was sent: a typed question picks redacted options (the schema's own values). */
function reply(r: ProviderRequest): ProviderAnswer {
  const common = { saying: 'I would say so.', confidence: 0.8, passages: [0] };
  const props = r.schema?.properties ?? {};
  if ('choice' in props) {
    const same = sentOptions(r.schema, 'choice', '[phone] (2)');
    return { json: { choice: same[0] ?? sentOptions(r.schema, 'choice', '[phone]')[0] ?? 'no_evidence', ...common } };
  }
  if ('choices' in props) return { json: { choices: [...sentOptions(r.schema, 'choices', '[address]'), ...sentOptions(r.schema, 'choices', '[person ')], ...common } };
  if ('value' in props) return { json: { value: JSON.stringify(props.value).includes('integer') ? 5 : 12, noEvidence: false, ...common } };
  if ('noEvidence' in props) return { json: { noEvidence: false, ...common } };
  if ('psychologist' in props) return { json: { psychologist: 'p', behaviouralEconomist: 'b', politicalScientist: 'ps', demographer: 'd' } };
  if ('judgements' in props) return { json: { judgements: [], ...Object.fromEntries(['openness', 'conscientiousness', 'extraversion', 'agreeableness', 'neuroticism'].map((t) => [t, { score: 0.5, rationale: 'r', statements: [] }])) } };
  return { json: { thinking: 't', feeling: 'f', saying: 'I would run first, then decide.', acting: 'a', confidence: 0.7 } };
}

let provider: LlmStandIn;
before(async () => {
  provider = await startLlmStandIn(reply);
});
after(() => provider.close());

/** A service on the stand-in, with one outbound-redacted mind of sampleInterview. */
async function serviceWithMind(env: Record<string, string>): Promise<{ srv: Service; sdk: TestSdk; mindId: string }> {
  const srv = await startService(env);
  const sdk = srv.sdk();
  const { mind } = await sdk.minds.create({ name: 'Sam Okafor', redaction: 'outbound', consent: FULL_CONSENT });
  const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' });
  assert.equal((await waitFor(sdk, mind.id, r.mindAssessmentId)).status, 'completed');
  return { srv, sdk, mindId: mind.id };
}

const scenario = `Would you ask my neighbour ${V.neighbour}, call ${V.phone}, write to ${V.email} or go to ${V.address}?`;

describe('outbound redaction, OpenAI protocol: every field of every request', () => {
  let srv: Service;
  let sdk: TestSdk;
  let mindId = '';
  let from = 0;
  before(async () => {
    from = provider.requests.length;
    ({ srv, sdk, mindId } = await serviceWithMind(provider.env()));
  });
  after(() => srv?.close());

  it('simulations, plain (with the conversation so far), streamed and queued: nothing planted sent', async () => {
    const ask = (extra: Record<string, unknown> = {}) => ({ mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: scenario }, ...extra });
    const first = await sdk.simulate(ask());
    await sdk.simulate(ask({ conversationId: first.conversationId, scenario: { message: `And would ${V.neighbour} come along?` } }));
    const events: string[] = [];
    for await (const e of sdk.simulateStream(ask())) events.push(e.event);
    assert.equal(events.at(-1), 'result');
    const queued = await sdk.simulate(ask({ runInBackground: true }));
    const status = await waitUntil(
      async () => {
        const s = (await sdk.simulations.get(queued.simulationId)).simulation.status;
        return s === 'queued' || s === 'running' ? null : s;
      },
      { what: 'the queued simulation answered' },
    );
    assert.equal(status, 'completed');
    const sims = provider.requests.slice(from).filter((r) => r.schemaName === 'simulation');
    assert.equal(sims.length, 4, 'plain, follow-up, streamed, queued');
    assert.ok(sims.some((r) => r.stream), 'one was streamed');
    for (const r of sims) {
      assert.deepEqual(leaks(r.raw), [], `simulation request${r.stream ? ' (streamed)' : ''}`);
      assert.ok(r.user.includes('[phone]') && r.user.includes('[email]') && r.user.includes('[address]') && /\[person \d+\]/.test(r.user), 'placeholders stand in');
    }
  });

  it('a panel of every question type: nothing planted in the prompt or the schema; the answers are the options as written', async () => {
    const before = provider.requests.length;
    const { panel } = await sdk.panels.create({ name: 'Fields', mindIds: [mindId], questions: QUESTIONS, selectedSimulationModel: 'mind-reasoner-pro' });
    assert.equal((await sdk.panels.wait(panel.id, { timeoutMs: 60_000 })).status, 'completed');
    const typed = provider.requests.slice(before).filter((r) => r.schemaName === 'typed_answer');
    assert.equal(typed.length, QUESTIONS.length);
    for (const r of typed) assert.deepEqual(leaks(r.raw), [], `typed_answer request: ${r.user.slice(r.user.indexOf('# Question'), r.user.indexOf('# Task'))}`);
    for (const r of provider.requests.slice(from)) assert.deepEqual(leaks(r.raw), [], `${r.schemaName} request`);

    // The options travel redacted in the enum, distinct; the model's redacted pick is stored as the client's option.
    const single = typed.find((r) => r.user.includes('Who would you ask for help first?'));
    assert.deepEqual(single?.schema?.properties?.choice?.enum, [
      `My neighbour ${/\[person \d+\]/.exec(JSON.stringify(single?.schema))?.[0]}`,
      'Whoever answers [phone]',
      'Whoever reads [email]',
      'Someone at [address]',
      'Nobody',
      'no_evidence',
    ]);
    const same = typed.find((r) => r.user.includes('Which number would you call?'));
    assert.deepEqual(same?.schema?.properties?.choice?.enum, ['Call [phone]', 'Call [phone] (2)', 'Neither', 'no_evidence']);
    const { answers } = await sdk.panels.answers(panel.id);
    const got = Object.fromEntries(answers.map((a) => [a.questionId, [a.status, a.choices, a.value]]));
    assert.deepEqual(got, {
      open: ['answered', [], null],
      single: ['answered', [`Whoever answers ${V.phone}`], null],
      same: ['answered', [`Call ${V.phone2}`], null],
      multiple: ['answered', [`Past ${V.address}`, `With my sister ${V.sister}`], null],
      likert: ['answered', [], 5],
      number: ['answered', [], 12],
    });
  });
});

describe('outbound redaction, Anthropic protocol: the schema sent as a tool, the answer its arguments', () => {
  let srv: Service;
  let sdk: TestSdk;
  let mindId = '';
  let from = 0;
  before(async () => {
    from = provider.requests.length;
    // A model without native structured outputs: the AI SDK sends the answer's schema as the input of a tool it must call.
    ({ srv, sdk, mindId } = await serviceWithMind({ LLM_PROVIDER: 'anthropic', LLM_BASE_URL: provider.baseUrl, LLM_API_KEY: 'test-key', LLM_MODEL: 'claude-3-haiku-20240307', LLM_MAX_RETRIES: '0' }));
  });
  after(() => srv?.close());

  it('nothing planted in the tool, its schema or the prompt; the tool call naming a redacted option is stored as the option', async () => {
    await sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-pro', scenario: { message: scenario } });
    const { panel } = await sdk.panels.create({ name: 'Tools', mindIds: [mindId], questions: QUESTIONS.filter((q) => q.id === 'single' || q.id === 'multiple'), selectedSimulationModel: 'mind-reasoner-pro' });
    assert.equal((await sdk.panels.wait(panel.id, { timeoutMs: 60_000 })).status, 'completed');
    const sent = provider.requests.slice(from);
    assert.ok(sent.length >= 3 && sent.every((r) => r.protocol === 'anthropic' && r.tool === 'json'), JSON.stringify(sent.map((r) => [r.protocol, r.tool])));
    for (const r of sent) assert.deepEqual(leaks(r.raw), [], 'anthropic request');
    assert.ok(sent.some((r) => sentOptions(r.schema, 'choice', '[phone]').length === 1), 'the options went as the tool input schema, redacted');
    const { answers } = await sdk.panels.answers(panel.id);
    assert.deepEqual(
      answers.map((a) => [a.questionId, a.choices]),
      [['single', [`Whoever answers ${V.phone}`]], ['multiple', [`Past ${V.address}`, `With my sister ${V.sister}`]]],
    );
  });
});
