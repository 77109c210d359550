/**
 * Typed answers through the LLM engine (panels) against the testkit's local server that speaks the OpenAI
 * chat-completions protocol: the schema sent constrains the answer to the question's options
 * (plus "no_evidence"), the reply is mapped to a typed answer, and a reply that is not one of the
 * allowed answers becomes no_evidence (never an invented option, never a failed panel).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LlmEngine } from '../../src/engines/llm.ts';
import { LlmClient } from '../../src/engines/llm-model.ts';
import { UNFIT_SAYING } from '../../src/engines/llm-questions.ts';
import type { Question } from '../../src/engines/questions.ts';
import type { MindMemory } from '../../src/memory/mind-memory.ts';
import { sampleInterview } from '../../testkit/fixtures.ts';
import { startLlmStandIn, type LlmStandIn } from '../../testkit/llm-provider.ts';
import { embeddedMind, testSearcher } from '../../testkit/minds.ts';

let reply: unknown = {};
let provider: LlmStandIn;
let engine: LlmEngine;
/** What the provider received last: the schema's name, the schema, the user's prompt. */
const last = () => {
  const r = provider.requests.at(-1);
  return { name: r?.schemaName, schema: r?.schema ?? {}, user: r?.user ?? '' };
};

const memory: MindMemory = await embeddedMind(sampleInterview(), 'Sam Okafor');
const ask = (question: Question) => engine.answerQuestion({ mindName: 'Sam Okafor', memory, question });

const REMOTE: Question = { id: 'q1', text: 'Do you prefer working remotely or in an office?', type: 'single', options: ['Remote', 'Office'] };

before(async () => {
  provider = await startLlmStandIn(() => ({ json: reply }));
  engine = new LlmEngine(new LlmClient(provider.settings()), testSearcher());
});

after(() => provider.close());

describe('LLM typed answers', () => {
  it('single: the schema is the options plus no_evidence; the reply is mapped, its passages as evidence', async () => {
    reply = { choice: 'Remote', saying: "Remote, without question. I'm far more productive there.", confidence: 0.8, passages: [0, 7] };
    const a = await ask(REMOTE);
    const sent = last();
    assert.equal(sent.name, 'typed_answer');
    assert.deepEqual(sent.schema.properties?.choice?.enum, ['Remote', 'Office', 'no_evidence']);
    assert.ok(['saying', 'confidence', 'passages', 'choice'].every((k) => sent.schema.required?.includes(k)));
    assert.match(sent.user, /# Question\n\nDo you prefer working remotely or in an office\?/);
    assert.match(sent.user, /\[0\] .*Remote, without question/);
    assert.deepEqual([a.status, a.choices, a.value, a.confidence], ['answered', ['Remote'], null, 0.8]);
    assert.equal(a.evidence.length, 1, 'the passage index out of range is ignored');
    assert.match(a.evidence[0]?.text ?? '', /Remote, without question/);
  });

  it('an option that is not in the list is no_evidence, never returned', async () => {
    reply = { choice: 'Hybrid', saying: 'A bit of both.', confidence: 0.9, passages: [0] };
    const a = await ask(REMOTE);
    assert.deepEqual([a.status, a.choices, a.value, a.evidence, a.saying], ['no_evidence', [], null, [], UNFIT_SAYING]);
    reply = { choice: 'no_evidence', saying: "I haven't said.", confidence: 0.1, passages: [] };
    const b = await ask(REMOTE);
    assert.deepEqual([b.status, b.choices, b.saying], ['no_evidence', [], "I haven't said."]);
  });

  it('multiple: an array of the same enum; an invented option anywhere in it is no_evidence', async () => {
    const q: Question = { id: 'q2', text: 'What do you drink?', type: 'multiple', options: ['Coffee', 'Decaf', 'Tea'] };
    reply = { choices: ['Coffee'], saying: 'Two cups a day.', confidence: 0.7, passages: [0] };
    assert.deepEqual((await ask(q)).choices, ['Coffee']);
    assert.deepEqual(last().schema.properties?.choices?.items?.enum, ['Coffee', 'Decaf', 'Tea', 'no_evidence']);
    reply = { choices: ['Coffee', 'Espresso'], saying: 'Coffee.', confidence: 0.7, passages: [0] };
    assert.equal((await ask(q)).status, 'no_evidence');
    reply = { choices: ['no_evidence'], saying: '', confidence: 0, passages: [] };
    assert.equal((await ask(q)).status, 'no_evidence');
  });

  it('likert and number: an integer of the scale or null with noEvidence; off the scale is no_evidence', async () => {
    const likert: Question = { id: 'q3', text: 'How much do you enjoy running?', type: 'likert', scale: { min: 1, max: 5, labels: ['not at all', 'a little', 'somewhat', 'a lot', 'very much'] } };
    reply = { value: 5, noEvidence: false, saying: 'Running helps more than anything.', confidence: 0.9, passages: [0] };
    const a = await ask(likert);
    assert.deepEqual([a.status, a.value, a.choices], ['answered', 5, []]);
    const value = last().schema.properties?.value;
    assert.match(JSON.stringify(value), /"type":"integer"/);
    assert.match(JSON.stringify(value), /"minimum":1/);
    assert.match(JSON.stringify(value), /"maximum":5/);
    assert.match(last().user, /1 = not at all/);
    reply = { value: 9, noEvidence: false, saying: 'Loads.', confidence: 0.9, passages: [0] };
    assert.equal((await ask(likert)).status, 'no_evidence');
    reply = { value: null, noEvidence: true, saying: "I haven't said.", confidence: 0.1, passages: [] };
    assert.equal((await ask(likert)).status, 'no_evidence');
    const number: Question = { id: 'q4', text: 'How many cups of coffee do you drink a day?', type: 'number' };
    reply = { value: 2, noEvidence: false, saying: 'Exactly two cups a day.', confidence: 0.9, passages: [0] };
    assert.deepEqual([(await ask(number)).value], [2]);
  });
});
