/**
 * The simulation tools over MCP at /mcp with the official SDK client: `simulate` with the hosted
 * server's arguments and ours, a follow-up through conversationId, `list_simulations` and
 * `get_simulation`, and another account's ids refused. The stdio server (`mindsim mcp`) answers
 * the same tools through the SDK backend.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { blobOf, waitFor } from '../testkit/sdk.ts';
import { call, callRaw, httpClient, stdioClient } from './support/mcp-client.ts';
import { startService, type Service } from '../testkit/service.ts';

let srv: Service;
let mindId = '';
let otherKey = '';

before(async () => {
  srv = await startService();
  const sdk = srv.sdk();
  mindId = (await sdk.minds.create('Sam Okafor')).mind.id;
  const r = await sdk.snapshots.create(mindId, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
  assert.equal((await waitFor(sdk, mindId, r.mindAssessmentId)).status, 'completed');
  otherKey = (await srv.admin.createAccount('mcp-other@example.com', 'standard')).apiKey;
});
after(() => srv?.close());

const connect = (key: string): Promise<Client> => httpClient(srv, key);

describe('simulation tools over MCP (HTTP)', () => {
  it('simulate takes the hosted arguments and ours; a follow-up continues the conversation; list and get show it', async () => {
    const client = await connect(srv.apiKey);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['simulate', 'list_simulations', 'get_simulation']) assert.ok(names.includes(t), t);
      const hosted = await call(client, 'simulate', {
        mindId,
        selectedSimulationModel: 'mind-reasoner-standard',
        scenario: { message: 'We are about to hire two engineers for my team. What would you look for in the candidates?' },
      });
      assert.equal(hosted.model, 'mind-reasoner-standard');
      assert.ok(hosted.evidence.length > 0);
      const followUp = await call(client, 'simulate', { mindId, message: 'What would you do first?', model: 'mind-reasoner-standard', conversationId: hosted.conversationId });
      assert.equal(followUp.conversationId, hosted.conversationId);
      const first = new Set(hosted.evidence.map((e: { text: string }) => e.text));
      assert.ok(followUp.evidence.some((e: { text: string }) => first.has(e.text)), 'answered in context');

      const listed = await call(client, 'list_simulations', { mindId, limit: 1 });
      assert.equal(listed.count, 1);
      assert.equal(listed.simulations[0].id, hosted.simulationId);
      assert.equal(listed.simulations[0].messageCount, 4);
      const detail = await call(client, 'get_simulation', { simulationId: hosted.simulationId });
      assert.deepEqual(detail.messages.map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant']);
      assert.equal(detail.messages[2].content.text, 'What would you do first?');

      for (const [args, pattern] of [
        [{ mindId }, /Give the scenario/],
        [{ mindId, message: 'a', scenario: { message: 'b' } }, /Give the scenario once/],
        [{ mindId, message: 'Hi', conversationId: '00000000-0000-4000-8000-000000000000' }, /API Error \(404\): .*CONVERSATION_NOT_FOUND/],
      ] as const) {
        const r = await callRaw(client, 'simulate', args);
        assert.ok(r.isError, r.text);
        assert.match(r.text, pattern);
      }
      const missing = await callRaw(client, 'get_simulation', { simulationId: '00000000-0000-4000-8000-000000000000' });
      assert.deepEqual([missing.isError, /API Error \(404\): .*SIMULATION_NOT_FOUND/.test(missing.text)], [true, true]);
    } finally {
      await client.close();
    }
  });

  it("another account's key sees none of it", async () => {
    const owner = await connect(srv.apiKey);
    const id = (await call(owner, 'list_simulations', {})).simulations[0].id as string;
    await owner.close();
    const client = await connect(otherKey);
    try {
      assert.deepEqual(await call(client, 'list_simulations', {}), { simulations: [], count: 0 });
      for (const [name, args] of [
        ['get_simulation', { simulationId: id }],
        ['list_simulations', { mindId }],
        ['simulate', { mindId, message: 'Hi', conversationId: id }],
      ] as const) {
        const r = await callRaw(client, name, args);
        assert.ok(r.isError, `${name}: ${r.text}`);
        assert.match(r.text, /API Error \(404\): .*_NOT_FOUND/);
      }
    } finally {
      await client.close();
    }
  });
});

describe('simulation tools over stdio (mindsim mcp)', () => {
  it('answers simulate with a conversation, list_simulations and get_simulation through the SDK', async () => {
    const client = await stdioClient(srv, 'test');
    try {
      const first = await call(client, 'simulate', { mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How do you deal with burnout?' } });
      const next = await call(client, 'simulate', { mindId, message: 'And why?', conversationId: first.conversationId });
      assert.equal(next.simulationId, first.simulationId);
      const listed = await call(client, 'list_simulations', { mindId, limit: 1 });
      assert.equal(listed.simulations[0].id, first.simulationId);
      assert.equal((await call(client, 'get_simulation', { simulationId: first.simulationId })).simulation.messageCount, 4);
    } finally {
      await client.close();
    }
  });
});
