/**
 * Conversations and the simulation history (`/simulations`), follow-ups answered in context,
 * background simulations on the in-process worker and streamed ones (server-sent events), under
 * both prefixes, with two accounts that never see each other's simulations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SimulationEvent } from '@mindsim/sdk';
import { client, type Client } from '../../testkit/http.ts';
import { failure, statusOf, type TestSdk, interviewMind } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { waitUntil } from '../../testkit/wait.ts';

let srv: Service;
let sdk: TestSdk;
let api: Client;
/** The same API under the hosted service's newer base path. */
let mindsim: Client;
let other: { sdk: TestSdk; api: Client; mindsim: Client };
let mindId = '';

const STANDARD = 'mind-reasoner-standard';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  mindsim = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
  const b = await srv.admin.createAccount('other@example.com', 'standard');
  other = { sdk: srv.sdk(b.apiKey), api: client(srv.api, b.apiKey), mindsim: client(`${srv.baseUrl}/api/mindsim`, b.apiKey) };
  mindId = await interviewMind(sdk, 'Sam Okafor');
});
after(() => srv?.close());

const ask = (message: string, extra: Record<string, unknown> = {}) => ({ mindId, selectedSimulationModel: STANDARD, scenario: { message }, ...extra });
/** The sentences of some evidence (passages of different lengths can quote the same sentences). */
const texts = (evidence: ReadonlyArray<{ text: string }>) => new Set(evidence.flatMap((e) => e.text.split(/(?<=[.!?])\s+/)));

/** Polls a background simulation until it is final, keeping every status seen. */
async function settle(c: Client, id: string): Promise<{ body: { simulation: { status: string }; messages: unknown[] }; seen: string[] }> {
  const seen: string[] = [];
  return waitUntil(
    async () => {
      const r = await c.get(`/simulations/${id}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (seen.at(-1) !== r.body.simulation.status) seen.push(r.body.simulation.status);
      return ['completed', 'failed'].includes(r.body.simulation.status) ? { body: r.body, seen } : null;
    },
    { what: () => `simulation ${id} final (seen ${seen.join(' → ')})` },
  );
}

describe('every simulation is a stored conversation', () => {
  it('the synchronous answer is as before, plus simulationId and conversationId (the same id)', async () => {
    const r = await api.post('/simulate', ask('  Do you prefer working remotely or in an office?  '));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const k of ['message', 'model', 'snapshotIds', 'analysis', 'confidence', 'evidence']) assert.ok(k in r.body, k);
    assert.equal(r.body.simulationId, r.body.conversationId);
    const got = await api.get(`/simulations/${r.body.simulationId}`);
    assert.equal(got.status, 200);
    const { simulation, messages } = got.body;
    assert.equal(simulation.title, 'Do you prefer working remotely or in an office?');
    assert.deepEqual([simulation.mindId, simulation.status, simulation.model, simulation.messageCount, simulation.error], [mindId, 'completed', STANDARD, 2, null]);
    assert.equal(simulation.mindAssessmentId, r.body.snapshotIds.at(-1));
    assert.equal(simulation.digitalTwinId, null);
    assert.deepEqual(messages.map((m: { role: string }) => m.role), ['user', 'assistant']);
    assert.deepEqual(messages[0].content, { text: 'Do you prefer working remotely or in an office?' });
    assert.deepEqual(messages[1].content, { text: r.body.message, analysis: r.body.analysis, confidence: r.body.confidence, evidence: r.body.evidence });
  });

  it('a follow-up with no subject of its own is answered from the conversation (evidence overlaps), not so alone', async () => {
    const first = await sdk.simulate(ask('We are about to hire two engineers for my team. What would you look for in the candidates?'));
    assert.match(first.evidence[0]?.text ?? '', /^Curiosity and the ability to write clearly/);
    const followUp = 'What would you do first?';
    const inContext = await sdk.simulate(ask(followUp, { conversationId: first.conversationId }));
    const alone = await sdk.simulate(ask(followUp));
    assert.equal(inContext.conversationId, first.conversationId);
    assert.notEqual(alone.conversationId, first.conversationId);
    const firstEvidence = texts(first.evidence);
    assert.ok([...texts(inContext.evidence)].some((t) => firstEvidence.has(t)), 'the follow-up draws on the first answer’s passages');
    assert.ok(![...texts(alone.evidence)].some((t) => firstEvidence.has(t)), 'alone, it does not');
    assert.ok(inContext.confidence > alone.confidence);
    const { simulation, messages } = await sdk.simulations.get(first.conversationId);
    assert.equal(simulation.messageCount, 4);
    assert.deepEqual(messages.map((m) => m.content.text), [messages[0]?.content.text, first.message, followUp, inContext.message]);
    assert.ok(messages.every((m, i) => i === 0 || m.createdAt >= (messages[i - 1]?.createdAt ?? '')), 'oldest first');
  });

  it('lists newest first with the total count, by mind, with limit and offset, under both prefixes', async () => {
    const second = await interviewMind(sdk, 'Second Mind');
    const ids = [];
    for (const m of ['One?', 'Two?', 'Three?']) ids.push((await sdk.simulate({ ...ask(m), mindId: second })).simulationId);
    const page = await mindsim.get(`/simulations?mindId=${second}&limit=2`);
    assert.equal(page.status, 200);
    assert.equal(page.body.count, 3);
    assert.deepEqual(page.body.simulations.map((s: { id: string }) => s.id), [ids[2], ids[1]]);
    const rest = await sdk.simulations.list({ mindId: second, limit: 2, offset: 2 });
    assert.deepEqual([rest.count, rest.simulations.map((s) => s.id)], [3, [ids[0]]]);
    const all = await sdk.simulations.list();
    assert.ok(all.count >= 6);
    assert.ok(all.simulations.every((s, i) => i === 0 || s.createdAt <= (all.simulations[i - 1]?.createdAt ?? '')), 'newest first');
    const detail = await mindsim.get(`/simulations/${ids[0]}`);
    assert.deepEqual([detail.status, detail.body.simulation.id], [200, ids[0]]);
    // Deleting the mind deletes its simulations.
    await sdk.minds.delete(second);
    assert.equal((await sdk.simulations.list({ mindId })).simulations.some((s) => s.mindId === second), false);
    assert.equal(await statusOf(sdk.simulations.get(ids[0] ?? '')), 404);
    assert.equal((await api.get(`/simulations?mindId=${second}`)).status, 404);
  });

  it('deletes a simulation (both prefixes); then it is gone', async () => {
    const a = await sdk.simulate(ask('How do you start your day?'));
    const deleted = await sdk.simulations.delete(a.simulationId);
    assert.deepEqual(deleted, { message: 'Simulation deleted successfully', simulationId: a.simulationId });
    assert.equal(await statusOf(sdk.simulations.get(a.simulationId)), 404);
    assert.equal((await sdk.simulations.list()).simulations.some((s) => s.id === a.simulationId), false);
    const b = await sdk.simulate(ask('What about coffee?'));
    const r = await mindsim.del(`/simulations/${b.simulationId}`);
    assert.deepEqual([r.status, r.body.simulationId], [200, b.simulationId]);
    assert.equal((await mindsim.del(`/simulations/${b.simulationId}`)).body.code, 'SIMULATION_NOT_FOUND');
    const gone = await failure(sdk.simulate(ask('And then?', { conversationId: a.simulationId })));
    assert.deepEqual([gone.status, gone.code], [404, 'CONVERSATION_NOT_FOUND']);
  });
});

describe('two accounts never see each other’s simulations', () => {
  it('another account gets 404 for every id of this one, and lists nothing of it', async () => {
    const mine = await sdk.simulate(ask('Would you hire someone without a degree?'));
    assert.equal((await other.sdk.simulations.list()).count, 0);
    for (const c of [other.api, other.mindsim]) {
      assert.equal((await c.get(`/simulations/${mine.simulationId}`)).status, 404);
      assert.equal((await c.del(`/simulations/${mine.simulationId}`)).status, 404);
      assert.equal((await c.get(`/simulations?mindId=${mindId}`)).status, 404);
    }
    // Continuing another account's conversation: 404, as for an unknown one (with a mind of its own).
    const theirMind = await interviewMind(other.sdk, 'Their Mind');
    const r = await other.api.post('/simulate', { mindId: theirMind, scenario: { message: 'And then?' }, conversationId: mine.conversationId });
    assert.deepEqual([r.status, r.body.code], [404, 'CONVERSATION_NOT_FOUND']);
    const theirs = await other.sdk.simulate({ mindId: theirMind, selectedSimulationModel: STANDARD, scenario: { message: 'Coffee?' } });
    assert.equal(await statusOf(sdk.simulations.get(theirs.simulationId)), 404);
    assert.equal((await sdk.simulations.list()).simulations.some((s) => s.id === theirs.simulationId), false);
    assert.equal((await sdk.simulations.get(mine.simulationId)).simulation.messageCount, 2, 'untouched');
  });
});

describe('bad input is a clear 4xx', () => {
  it('rejects wrong types, unknown ids and contradictions', async () => {
    const cases: Array<[Promise<{ status: number; body: { code: string } }>, number, string]> = [
      [api.get('/simulations?limit=0'), 400, 'VALIDATION_FAILED'],
      [api.get('/simulations?limit=abc'), 400, 'VALIDATION_FAILED'],
      [api.get('/simulations?offset=-1'), 400, 'VALIDATION_FAILED'],
      [api.get('/simulations?mindId=nope'), 400, 'VALIDATION_FAILED'],
      [api.get(`/simulations?mindId=${UNKNOWN}`), 404, 'MIND_NOT_FOUND'],
      [api.get('/simulations/not-a-uuid'), 400, 'VALIDATION_FAILED'],
      [mindsim.get(`/simulations/${UNKNOWN}`), 404, 'SIMULATION_NOT_FOUND'],
      [api.del(`/simulations/${UNKNOWN}`), 404, 'SIMULATION_NOT_FOUND'],
      [api.post('/simulate', ask('Hi?', { conversationId: 'nope' })), 400, 'VALIDATION_FAILED'],
      [api.post('/simulate', ask('Hi?', { conversationId: UNKNOWN })), 404, 'CONVERSATION_NOT_FOUND'],
      [api.post('/simulate', ask('Hi?', { runInBackground: 'yes' })), 400, 'VALIDATION_FAILED'],
      [api.post('/simulate', ask('Hi?', { stream: 1 })), 400, 'VALIDATION_FAILED'],
      [api.post('/simulate', ask('Hi?', { stream: true, runInBackground: true })), 400, 'INCOMPATIBLE_OPTIONS'],
      [api.post('/simulate', ask('Hi?', { stream: true, conversationId: UNKNOWN })), 404, 'CONVERSATION_NOT_FOUND'],
      [api.post('/simulate', ask('Hi?', { runInBackground: true, mindId: UNKNOWN })), 404, 'MIND_NOT_FOUND'],
    ];
    for (const [call, status, code] of cases) {
      const r = await call;
      assert.deepEqual([r.status, r.body.code], [status, code], JSON.stringify(r.body));
    }
    const { mind } = await sdk.minds.create('No Snapshot Yet');
    for (const extra of [{}, { runInBackground: true }, { stream: true }]) {
      const r = await api.post('/simulate', { ...ask('Hi?', extra), mindId: mind.id });
      assert.deepEqual([r.status, r.body.code], [409, 'SNAPSHOT_NOT_READY']);
    }
    assert.equal((await sdk.simulations.list({ mindId: mind.id })).count, 0, 'nothing stored for a refused call');
    const elsewhere = await sdk.simulate(ask('How do you start your day?'));
    const second = await interviewMind(sdk, 'Another Mind');
    const r = await api.post('/simulate', { ...ask('And then?'), mindId: second, conversationId: elsewhere.conversationId });
    assert.deepEqual([r.status, r.body.code, r.body.details.mindId], [400, 'CONVERSATION_MIND_MISMATCH', mindId]);
  });
});

describe('background simulations (runInBackground)', () => {
  it('answers 200 at once with the queued simulation; the worker completes it and stores the answer', async () => {
    const r = await mindsim.post('/simulate', ask('How do you deal with burnout?', { runInBackground: true }));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ['conversationId', 'message', 'simulationId', 'status']);
    assert.deepEqual([r.body.status, r.body.message, r.body.conversationId], ['queued', 'Simulation queued', r.body.simulationId]);
    const { body, seen } = await settle(api, r.body.simulationId);
    assert.equal(seen.at(-1), 'completed', JSON.stringify(body));
    assert.ok(seen.every((s) => ['queued', 'running', 'completed'].includes(s)), seen.join(' → '));
    const sync = await sdk.simulate(ask('How do you deal with burnout?'));
    const [asked, answered] = body.messages as Array<{ role: string; content: { text: string; evidence: unknown[]; analysis: unknown } }>;
    assert.deepEqual([asked?.role, asked?.content.text], ['user', 'How do you deal with burnout?']);
    assert.equal(answered?.role, 'assistant');
    assert.deepEqual([answered?.content.text, answered?.content.analysis, answered?.content.evidence], [sync.message, sync.analysis, sync.evidence]);
  });

  it('a background follow-up continues the conversation in context; the SDK queues too', async () => {
    const first = await sdk.simulate(ask('We are about to hire two engineers for my team. What would you look for in the candidates?'));
    const queued = await sdk.simulate({ ...ask('What would you do first?'), conversationId: first.conversationId, runInBackground: true });
    assert.deepEqual([queued.status, queued.simulationId], ['queued', first.simulationId]);
    const { body } = await settle(api, queued.simulationId);
    const messages = body.messages as Array<{ role: string; content: { evidence?: Array<{ text: string }> } }>;
    assert.equal(messages.length, 4);
    const firstEvidence = texts(first.evidence);
    assert.ok([...texts(messages[3]?.content.evidence ?? [])].some((t) => firstEvidence.has(t)));
  });
});

async function collect(events: AsyncIterable<SimulationEvent>): Promise<SimulationEvent[]> {
  const all: SimulationEvent[] = [];
  for await (const e of events) all.push(e);
  return all;
}

describe('streamed simulations (text/event-stream)', () => {
  it('the offline engine sends start, each part, the evidence, then the result; the turn is stored', async () => {
    const events = await collect(sdk.simulateStream(ask('Do you prefer working remotely or in an office?')));
    assert.deepEqual(events.map((e) => e.event), ['start', 'part', 'part', 'part', 'part', 'evidence', 'result']);
    const parts = Object.fromEntries(events.flatMap((e) => (e.event === 'part' ? [[e.data.field, e.data.text]] : [])));
    const result = events.at(-1);
    assert.ok(result?.event === 'result');
    const start = events[0];
    assert.ok(start?.event === 'start');
    assert.deepEqual([start.data.simulationId, start.data.model], [result.data.simulationId, STANDARD]);
    assert.deepEqual(parts, result.data.analysis);
    const evidence = events.find((e) => e.event === 'evidence');
    assert.deepEqual(evidence?.data, { evidence: result.data.evidence });
    const sync = await sdk.simulate(ask('Do you prefer working remotely or in an office?'));
    assert.deepEqual({ ...result.data, simulationId: '', conversationId: '' }, { ...sync, simulationId: '', conversationId: '' });
    const stored = await sdk.simulations.get(result.data.simulationId);
    assert.equal(stored.messages[1]?.content.text, result.data.message);
    // A follow-up streamed in the same conversation.
    const more = await collect(sdk.simulateStream({ ...ask('What would you do first?'), conversationId: result.data.conversationId }));
    assert.equal(more.at(-1)?.event, 'result');
    assert.equal((await sdk.simulations.get(result.data.simulationId)).simulation.messageCount, 4);
  });

  it('is a real event stream under both prefixes, rate-limited and metered like any call', async () => {
    const before = (await srv.ctx.services.usage.daily(srv.ownerAccountId, 1))[0]?.requests ?? 0;
    for (const base of [srv.api, `${srv.baseUrl}/api/mindsim`]) {
      const res = await fetch(`${base}/simulate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(ask('What about coffee?', { stream: true })),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.ok(res.headers.get('x-ratelimit-remaining'), 'counted by the rate limiter');
      assert.ok(res.headers.get('x-request-id'));
      const text = await res.text();
      assert.match(text, /^event: start\ndata: \{.*\}\n\n/);
      assert.match(text, /event: result\ndata: \{"message":/);
    }
    const requests = async () => (await srv.ctx.services.usage.daily(srv.ownerAccountId, 1))[0]?.requests ?? 0;
    await waitUntil(async () => (await requests()) >= before + 2, { what: 'both streamed calls in the usage meter' });
    assert.equal(await requests(), before + 2, 'both streamed calls are in the usage meter, once each');
  });
});
