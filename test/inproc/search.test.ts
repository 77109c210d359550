/**
 * The learned search (src/memory/search) on a real mind with real encoder vectors and the committed
 * parameters: a scenario in another industry's words finds the person's passage, off-topic scenarios
 * of the evaluation bank are declined, both engines see the same top passages, and the parameter file
 * is checked against the features the code computes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GroundedEngine, UNKNOWN_SAYING } from '../../src/engines/grounded.ts';
import { LlmEngine } from '../../src/engines/llm.ts';
import { LlmClient } from '../../src/engines/llm-model.ts';
import { USE_LITE } from '../../src/memory/encoder/use-lite.ts';
import { checkParams, PARAMS_FILE, rankingParams } from '../../src/memory/params/params.ts';
import type { MindMemory } from '../../src/memory/mind-memory.ts';
import { sampleInterview } from '../../testkit/fixtures.ts';
import { startLlmStandIn, type LlmStandIn } from '../../testkit/llm-provider.ts';
import { embeddedMind, testEncoder, testSearcher } from '../../testkit/minds.ts';
import { Searcher } from '../../src/memory/search/searcher.ts';
import { rankPassages } from '../../src/memory/search/rank.ts';
import { rerankScores } from '../../src/memory/search/rerank.ts';
import { RERANK_FEATURES } from '../../src/memory/search/rerank-features.ts';

let mind: MindMemory;
const searcher = testSearcher();
const grounded = new GroundedEngine(searcher);
const simulate = (scenario: string) => grounded.simulate({ mindName: 'Sam Okafor', memory: mind, scenario });

before(async () => {
  mind = await embeddedMind(sampleInterview(), 'Sam Okafor');
});

describe('the learned search', () => {
  it('every passage of the mind has a stored vector', () => {
    assert.ok(mind.passages && mind.passages.size > 0);
    assert.equal(mind.passages.vectors.dimensions, USE_LITE.dimensions);
  });

  it("a scenario set in another industry, in words the person never used, finds the person's passage", async () => {
    const cases: Array<[string, RegExp]> = [
      ['I manage a dental practice and my receptionists asked to answer the phones from home three days a week. Should I agree?', /Remote, without question|worked from home/],
      ['Our orchestra players keep running themselves into the ground before big concerts. What do you do when you feel exhaustion coming?', /I protect my evenings/],
      ['A young nurse on my ward is afraid to admit she does not know how to use the new equipment. What would you tell her?', /Ask for help sooner/],
    ];
    for (const [scenario, expected] of cases) {
      const r = await simulate(scenario);
      assert.match(r.evidence[0]?.text ?? '', expected, scenario);
      assert.notEqual(r.message, UNKNOWN_SAYING, `answered: ${scenario}`);
    }
  });

  it('off-topic scenarios of the evaluation bank are declined', async () => {
    const bank = (JSON.parse(fs.readFileSync(new URL('../../eval/offtopic/eval.json', import.meta.url), 'utf8')) as { scenarios: Array<{ id: string; scenario: string }> }).scenarios;
    for (const id of ['ev-002', 'ev-003', 'ev-006', 'ev-012']) {
      const scenario = bank.find((s) => s.id === id)?.scenario ?? '';
      const r = await simulate(scenario);
      assert.equal(r.message, UNKNOWN_SAYING, `${id}: ${scenario} (confidence ${r.confidence})`);
      assert.deepEqual(r.evidence, []);
    }
  });

  it('the same question gets the same answer (deterministic)', async () => {
    const a = await simulate('How should a new engineer handle the fear of admitting they do not know something?');
    const b = await simulate('How should a new engineer handle the fear of admitting they do not know something?');
    assert.deepEqual(a, b);
  });
});

describe('the parameter file', () => {
  it('is the one the engine reads, fitted for this encoder and these features', () => {
    const committed = checkParams(JSON.parse(fs.readFileSync(PARAMS_FILE, 'utf8')));
    const { rerank: _rerank, ...loaded } = rankingParams();
    assert.deepEqual(loaded, committed);
    assert.equal(committed.encoder, USE_LITE.id);
    assert.ok(committed.declineBelow > 0 && committed.declineBelow < 1);
  });

  it('is refused, with what to do, when its features are not the ones the code computes', () => {
    const committed = JSON.parse(fs.readFileSync(PARAMS_FILE, 'utf8')) as { features: string[] };
    assert.throws(() => checkParams({ ...committed, features: [...committed.features.slice(1), 'other'] }), /run npm run train/);
    assert.throws(() => checkParams({ ...committed, declineBelow: 2 }));
  });

  it('the second stage is loaded with it, and refused when its features or shapes disagree', () => {
    const rerank = rankingParams().rerank;
    assert.ok(rerank, 'rerank.json is committed beside ranking.json');
    assert.deepEqual(rerank.features, [...RERANK_FEATURES]);
    const committed = JSON.parse(fs.readFileSync(PARAMS_FILE, 'utf8')) as object;
    assert.throws(() => checkParams({ ...committed, rerank: { ...rerank, features: [...rerank.features.slice(0, -1), 'other'] } }), /rerank.json was fitted on features/);
    assert.throws(() => checkParams({ ...committed, rerank: { ...rerank, out: [...rerank.out, 1] } }), /shapes of its weights disagree/);
  });
});

describe('a short monologue (a talk, a profile recording: one speaker, a few passages)', () => {
  const talk =
    'I grew up on a farm in Iowa, and mornings started at five with the cows. My father taught me that you fix what is broken before you buy anything new. ' +
    'I moved to Chicago for college and studied mechanical engineering. After that I worked at a tractor company for eight years, designing transmissions. ' +
    'What I learned there is that farmers will forgive a slow machine but never an unreliable one. Today I run a small repair shop, and I still think reliability beats features every single time.';

  it('answers what its words say ("Where did you grow up?" from its first sentence) and still declines what they do not', async () => {
    const monologue = await embeddedMind([{ speaker: null, text: talk }], 'Dana Miller', 'talk-1');
    const ask = (scenario: string) => grounded.simulate({ mindName: 'Dana Miller', memory: monologue, scenario });
    const home = await ask('Where did you grow up?');
    assert.notEqual(home.message, UNKNOWN_SAYING, `answered (confidence ${home.confidence})`);
    assert.match(home.evidence[0]?.text ?? '', /I grew up on a farm in Iowa/);
    const football = await ask('What is your favourite football team?');
    assert.equal(football.message, UNKNOWN_SAYING, `declined (confidence ${football.confidence})`);
  });
});

describe('the second stage', () => {
  const scenario = 'Our bakery wants the night crew to cover extra shifts before the holidays. How do you keep people from burning out?';
  const rankings = async () => {
    const prepared = await searcher.prepare(scenario);
    const params = rankingParams();
    const passages = mind.passages;
    assert.ok(passages && params.rerank);
    const first = rankPassages(mind, passages, prepared.query, prepared.vectors, { ...params, rerank: undefined });
    const second = rankPassages(mind, passages, prepared.query, prepared.vectors, params);
    return { first, second, shortlist: params.rerank.shortlist };
  };

  it("re-orders only the first stage's shortlist: the same passages lead, the rest keep the first stage's order below them", async () => {
    const { first, second, shortlist } = await rankings();
    const k = Math.min(shortlist, first.passages.length);
    const top = (r: typeof first) => r.passages.slice(0, k).map((p) => p.passage);
    assert.deepEqual(top(second).sort((a, b) => a - b), top(first).sort((a, b) => a - b));
    assert.deepEqual(
      second.passages.slice(k).map((p) => p.passage),
      first.passages.slice(k).map((p) => p.passage),
    );
  });

  it('scores a shortlist as the fitted network does (linear + hidden ReLUs + the bilinear term), deterministically', async () => {
    const model = rankingParams().rerank;
    assert.ok(model);
    const f = model.features.length;
    const rows = Float32Array.from({ length: 2 * f }, (_, i) => (i % 7) / 7);
    const ask = Float32Array.from({ length: USE_LITE.dimensions }, (_, i) => Math.sin(i) / 16);
    const vectors = Float32Array.from({ length: 2 * USE_LITE.dimensions }, (_, i) => Math.cos(i) / 16);
    const [a, b] = rerankScores(model, rows, ask, vectors);
    // The same by hand, for the first row.
    const x = Array.from({ length: f }, (_, c) => ((rows[c] as number) - (model.mean[c] as number)) / (model.std[c] as number));
    let expected = x.reduce((s, v, c) => s + v * (model.linear[c] as number), 0);
    model.hiddenBias.forEach((bias, h) => {
      const z = x.reduce((s, v, c) => s + v * (model.hidden[c * model.hiddenBias.length + h] as number), bias);
      if (z > 0) expected += z * (model.out[h] as number);
    });
    for (let j = 0; j < model.rank; j++) {
      let qu = 0;
      let pv = 0;
      for (let d = 0; d < USE_LITE.dimensions; d++) {
        qu += (ask[d] as number) * (model.u[d * model.rank + j] as number);
        pv += (vectors[d] as number) * (model.v[d * model.rank + j] as number);
      }
      expected += qu * pv;
    }
    assert.ok(Math.abs((a as number) - expected) < 1e-3, `${a} vs ${expected}`);
    assert.notEqual(a, b);
    assert.deepEqual(rerankScores(model, rows, ask, vectors), Float32Array.of(a as number, b as number));
  });
});

describe('both engines quote the same passages', () => {
  let provider: LlmStandIn;
  before(async () => {
    provider = await startLlmStandIn(() => ({ json: { thinking: 't', feeling: 'f', saying: 's', acting: 'a', confidence: 0.5 } }));
  });
  after(() => provider.close());

  it('the LLM engine is shown, first, the passages the offline engine quotes as evidence', async () => {
    const llm = new LlmEngine(new LlmClient(provider.settings()), searcher);
    const scenario = 'A hospital ward wants its night nurses to take on a second shift during a staff shortage. How do you keep people from burning out?';
    const offline = await simulate(scenario);
    const online = await llm.simulate({ mindName: 'Sam Okafor', memory: mind, scenario });
    const found = await searcher.search(mind, scenario);
    const leads = (found?.ranking.answers ?? []).slice(0, 3).map((a) => mind.memories[a.first]?.text ?? '');
    assert.equal(leads.length, 3);
    leads.forEach((lead, i) => {
      assert.ok(offline.evidence[i]?.text.includes(lead), `offline evidence ${i} holds the ranked answer's best passage`);
      assert.ok(online.evidence[i]?.text.includes(lead), `LLM evidence ${i} holds the same passage`);
    });
    assert.ok(provider.requests.some((r) => `${r.system}\n${r.user}`.includes(leads[0]!)), 'the prompt carries it');
    // The answer stage chooses the evidence for both engines (memory/answer/compose.ts): the same items, in the same order.
    assert.deepEqual(
      online.evidence.map((e) => e.text),
      offline.evidence.map((e) => e.text),
    );
  });

  it('a panel question reads the same passages first: its open answer quotes the best, its evidence holds the next', async () => {
    const text = 'A hospital ward wants its night nurses to take on a second shift during a staff shortage. How do you keep people from burning out?';
    const typed = await grounded.answerQuestion({ mindName: 'Sam Okafor', memory: mind, question: { id: 'q', text, type: 'open' } });
    const found = await searcher.search(mind, text);
    const leads = (found?.ranking.answers ?? []).slice(0, 3).map((a) => mind.memories[a.first]?.text ?? '');
    assert.equal(typed.status, 'answered');
    assert.ok(typed.saying.includes(leads[0]!.slice(0, 40)), 'the saying is the best answer');
    leads.forEach((lead, i) => assert.ok(typed.evidence[i]?.text.includes(lead), `panel evidence ${i} holds the ranked answer's best passage`));
  });
});

describe('a panel embeds each question once', () => {
  it('one encoder call for a question and one per option, whatever the number of minds; a new question embeds anew', async () => {
    const texts: string[][] = [];
    const counting = new Searcher(async () => {
      const encoder = await testEncoder();
      return { id: encoder.id, dimensions: encoder.dimensions, embed: (t: readonly string[]) => (texts.push([...t]), encoder.embed(t)) };
    }, rankingParams());
    const engine = new GroundedEngine(counting);
    const other = await embeddedMind(sampleInterview().slice(0, 12), 'Sam Okafor', 'snap-2');
    const question = { id: 'q', text: 'Where do you do your best work?', type: 'single' as const, options: ['at home', 'in an office'] };
    // Three minds, as a panel runs them: concurrently, then once more.
    await Promise.all([mind, other, mind].map((memory) => engine.answerQuestion({ mindName: 'x', memory, question })));
    await engine.answerQuestion({ mindName: 'x', memory: other, question });
    assert.deepEqual(texts.flat().sort(), ['Where do you do your best work?', 'at home', 'at home, in an office.', 'in an office'].sort());
    await engine.answerQuestion({ mindName: 'x', memory: other, question: { ...question, text: 'Where do you work?' } });
    assert.equal(texts.length, 4, 'the new question, once; its options are remembered');
  });
});
