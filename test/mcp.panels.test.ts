/**
 * The panel tools over MCP with the official SDK client, at /mcp (domain services) and through
 * `mindsim mcp` (stdio, the SDK): run_panel waits for the results and answers a summary line and
 * the counts per question, `no_evidence` counted apart; get_panel adds a bounded number of answers;
 * both transports answer the same view of the same panel; a panel the worker has not reached comes
 * back after the bounded wait with the advice to call get_panel; errors worded as the other tools'.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestSdk, interviewMind } from '../testkit/sdk.ts';
import { call, callRaw, httpClient, stdioClient } from './support/mcp-client.ts';
import { startSwitchedService, type SwitchedService } from './support/worker-switch.ts';

let srv: SwitchedService;
let sdk: TestSdk;
let otherKey = '';
const minds = { enterprise: '', startup: '' };
const NIL = '00000000-0000-4000-8000-000000000000';

const QUESTIONS = [
  { id: 'where', text: 'Where are you more productive?', type: 'single', options: ['At home', 'In the office'] },
  { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'number' },
  { id: 'burnout', text: 'How do you deal with burnout?', type: 'open' },
  { id: 'football', text: 'Which football club do you support?', type: 'single', options: ['Arsenal', 'Liverpool', 'Real Madrid'] },
];

before(async () => {
  srv = await startSwitchedService();
  sdk = srv.sdk();
  [minds.enterprise, minds.startup] = await Promise.all([interviewMind(sdk, 'Sam Okafor', ['enterprise']), interviewMind(sdk, 'Sam Twin', ['startup'])]);
  otherKey = (await srv.admin.createAccount('mcp-panels-other@example.com', 'standard')).apiKey;
});
after(() => srv?.close());

const connect = (key = srv.apiKey): Promise<Client> => httpClient(srv, key);

async function failed(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await callRaw(client, name, args);
  assert.ok(r.isError, `${name} should fail: ${r.text}`);
  return r.text;
}

const resultOf = (view: { results: Array<{ questionId: string }> }, id: string) => view.results.find((q) => q.questionId === id) as Record<string, unknown> & { distribution?: Array<{ option: string; count: number; share: number }> };

describe('panel tools over MCP (HTTP)', () => {
  let panelId = '';

  it('run_panel over tags waits for the results: a summary line and the counts per question, no_evidence apart, per tag', async () => {
    const client = await connect();
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['run_panel', 'get_panel']) assert.ok(names.includes(t), t);
      const view = await call(client, 'run_panel', { questions: QUESTIONS, tags: ['enterprise', 'startup'], name: 'Pulse', selectedSimulationModel: 'mind-reasoner-standard' });
      panelId = view.panel.id;
      assert.equal(view.panel.status, 'completed');
      assert.deepEqual([view.panel.name, view.panel.minds, view.panel.total, view.panel.done], ['Pulse', 2, 8, 8]);
      assert.deepEqual(view.summary, [
        'where (single) Where are you more productive? — At home: 2 (100%); In the office: 0 (0%) · 2 answered, 0 no_evidence',
        'coffee (number) How many cups of coffee do you drink a day? — mean 2, median 2 · 2 answered, 0 no_evidence',
        'burnout (open) How do you deal with burnout? — answers in words: see get_panel with includeAnswers · 2 answered, 0 no_evidence',
        'football (single) Which football club do you support? — Arsenal: 0 (0%); Liverpool: 0 (0%); Real Madrid: 0 (0%) · 0 answered, 2 no_evidence',
      ]);
      assert.deepEqual(resultOf(view, 'where').distribution?.map((d) => [d.option, d.count, d.share]), [['At home', 2, 1], ['In the office', 0, 0]]);
      assert.deepEqual([resultOf(view, 'football').answered, resultOf(view, 'football').noEvidence], [0, 2]);
      assert.deepEqual([resultOf(view, 'coffee').mean, resultOf(view, 'coffee').median], [2, 2]);
      assert.equal(resultOf(view, 'burnout').distribution, undefined);
      assert.deepEqual(view.segments.map((s: { tag: string; minds: number }) => [s.tag, s.minds]), [['enterprise', 1], ['startup', 1]]);
      assert.match(view.next, /^Final\./);
    } finally {
      await client.close();
    }
  });

  it('get_panel gives the results and, on request, a bounded number of answers with the evidence', async () => {
    const client = await connect();
    try {
      const plain = await call(client, 'get_panel', { panelId });
      assert.equal(plain.answers, undefined);
      assert.equal(plain.summary.length, QUESTIONS.length);
      const some = await call(client, 'get_panel', { panelId, includeAnswers: 3 });
      assert.deepEqual([some.answers.length, some.answersCount], [3, 8]);
      assert.deepEqual(some.answers[0].choices, ['At home']);
      for (const a of some.answers) assert.ok(a.evidence.length > 0 && a.evidence.length <= 2 && a.evidence.every((e: { text: string }) => e.text.length > 0));
      const football = await call(client, 'get_panel', { panelId, includeAnswers: 100, questionId: 'football' });
      assert.deepEqual(football.answers.map((a: { status: string; evidence: unknown[] }) => [a.status, a.evidence.length]), [['no_evidence', 0], ['no_evidence', 0]]);
      assert.match(await failed(client, 'get_panel', { panelId, includeAnswers: 1, questionId: 'nope' }), /^Error: API Error \(400\): .*"code":"UNKNOWN_QUESTION"/);
      assert.match(await failed(client, 'get_panel', { panelId: NIL }), /^Error: API Error \(404\): \{"error":"Not Found",.*"code":"PANEL_NOT_FOUND"/);
      assert.match(await failed(client, 'get_panel', { panelId, includeAnswers: 101 }), /includeAnswers/);
    } finally {
      await client.close();
    }
  });

  it('refuses what the API refuses, in the same words; another account sees nothing', async () => {
    const client = await connect();
    try {
      for (const [args, pattern] of [
        [{ questions: QUESTIONS }, /API Error \(400\): .*"code":"PANEL_SELECTION_REQUIRED"/],
        [{ questions: [{ text: 'Which?', type: 'single', options: ['Only'] }], tags: ['enterprise'] }, /API Error \(400\): .*"message":"Question 1: a single question needs at least two options\.","code":"INVALID_QUESTION"/],
        [{ questions: QUESTIONS, mindIds: [NIL] }, /API Error \(404\): .*"code":"MIND_NOT_FOUND"/],
        [{ questions: QUESTIONS, tags: ['enterprise'], selectedSimulationModel: 'gpt-9' }, /API Error \(400\): .*"code":"UNKNOWN_MODEL"/],
        [{ questions: [{ text: 'Hm?', type: 'ranking' }], tags: ['enterprise'] }, /type/],
      ] as const) {
        assert.match(await failed(client, 'run_panel', args), pattern);
      }
    } finally {
      await client.close();
    }
    const other = await connect(otherKey);
    try {
      assert.match(await failed(other, 'get_panel', { panelId }), /API Error \(404\): .*PANEL_NOT_FOUND/);
      assert.match(await failed(other, 'run_panel', { questions: QUESTIONS, mindIds: [minds.enterprise] }), /API Error \(404\): .*MIND_NOT_FOUND/);
    } finally {
      await other.close();
    }
  });
});

describe('panel tools over stdio (mindsim mcp)', () => {
  it('run_panel and get_panel through the SDK answer the same view as /mcp', async () => {
    const [stdio, http] = await Promise.all([stdioClient(srv, 'test'), connect()]);
    try {
      const view = await call(stdio, 'run_panel', { questions: QUESTIONS.slice(1), tags: ['startup'], selectedSimulationModel: 'mind-reasoner-standard' });
      assert.equal(view.panel.status, 'completed');
      assert.deepEqual(view.panel.selection, { tags: ['startup'] });
      assert.deepEqual(view.segments, [{ tag: 'startup', minds: 1, sameAsPanel: true }], 'a tag every mind carries is not repeated');
      assert.equal(resultOf(view, 'coffee').mean, 2);
      const args = { panelId: view.panel.id, includeAnswers: 10 };
      const [viaStdio, viaHttp] = await Promise.all([call(stdio, 'get_panel', args), call(http, 'get_panel', args)]);
      assert.deepEqual(viaStdio, viaHttp);
      assert.equal(viaStdio.answers.length, 3);
      assert.match(await failed(stdio, 'get_panel', { panelId: NIL }), /^Error: API Error \(404\): \{"error":"Not Found",.*"code":"PANEL_NOT_FOUND"/);
    } finally {
      await Promise.all([stdio.close(), http.close()]);
    }
  });
});

describe('a panel the worker has not reached', () => {
  before(() => srv.pauseWorker());
  after(() => srv.resumeWorker());

  it('run_panel comes back after the bounded wait with the progress and the advice to call get_panel; wait: false at once', async (t) => {
    // What the tool did is counted, not timed: how many times it read each panel with its results, as it does while it
    // waits (creating a panel reads it once, without results: not counted).
    const reads = t.mock.method(srv.ctx.services.panels, 'get');
    const readsOf = (panelId: string) => reads.mock.calls.filter((c) => c.arguments[1] === panelId && c.arguments[2] !== false).length;
    const client = await connect();
    try {
      const waited = await call(client, 'run_panel', { questions: QUESTIONS, mindIds: [minds.enterprise], waitSeconds: 0.6 });
      assert.deepEqual([waited.panel.status, waited.panel.done, waited.panel.total], ['queued', 0, 4]);
      assert.match(waited.next, new RegExp(`^Still queued \\(0 of 4 answers\\): call get_panel with panelId "${waited.panel.id}"`));
      // It waited: read the queued panel, slept, read it again until its 0.6 s were spent. A second read needs only the first
      // to take under 0.6 s (a read takes milliseconds); sleeping 250 ms, then the rest, it reads three times, four at most.
      const polls = readsOf(waited.panel.id);
      assert.ok(polls >= 2 && polls <= 4, `${polls} reads of the queued panel`);
      const queued = await call(client, 'run_panel', { questions: QUESTIONS, mindIds: [minds.enterprise], wait: false });
      assert.equal(readsOf(queued.panel.id), 0, 'wait: false answers the panel as created, without reading it again');
      assert.deepEqual([queued.panel.status, queued.summary], ['queued', []]);
      assert.equal((await call(client, 'get_panel', { panelId: queued.panel.id })).panel.status, 'queued');
      for (const id of [waited.panel.id, queued.panel.id]) await sdk.panels.cancel(id);
    } finally {
      await client.close();
    }
  });
});
