/**
 * Corrections and review links on every client surface (issue 32, item 4), against a real service:
 * the typed SDK (`minds.corrections.*`, `minds.reviewLinks.*`), the CLI as a process (`mindsim
 * correct`, `mindsim corrections list|add|delete`, `mindsim review-links create|list|revoke`), and the
 * MCP tools `correct_answer` and `list_corrections` over HTTP (/mcp) and stdio (`mindsim mcp`).
 * A correction made on any of them is the mind's: asked the same scenario again, it leads the answer.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { runMindsim } from '../testkit/cli.ts';
import { failure, interviewMind, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';
import { call, callRaw, httpClient, stdioClient } from './support/mcp-client.ts';

let srv: Service;
let sdk: TestSdk;
let otherKey = '';
let mindId = '';
let home = '';

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent' });
  sdk = srv.sdk();
  mindId = await interviewMind(sdk, 'Sam Okafor');
  otherKey = (await srv.admin.createAccount('clients-other@example.com', 'pro')).apiKey;
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-corrections-'));
});
after(async () => {
  await srv?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const ask = (message: string) => sdk.simulate({ mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message } });
const mindsim = (args: string[]) => runMindsim(home, srv, args);
const connect = (key: string): Promise<Client> => httpClient(srv, key);

describe('the SDK', () => {
  it('creates, lists, reads and deletes corrections, and the mind answers from them', async () => {
    const scenario = 'Which city would you most like to live in, and why?';
    const answer = 'Lisbon: the light, the sea, and a slower pace than London.';
    const made = await sdk.minds.corrections.create(mindId, { scenario, answer, note: 'Said in a follow-up call' });
    assert.equal(made.mindId, mindId);
    assert.match(made.createdBy, /^key:/);
    assert.deepEqual(await sdk.minds.corrections.get(mindId, made.id), made);
    const first = await sdk.minds.corrections.list(mindId, { limit: 1 }).first();
    assert.equal(first.corrections[0]?.id, made.id);
    assert.ok((await sdk.minds.corrections.list(mindId, { limit: 1 }).all()).some((c) => c.id === made.id));

    const answered = await ask(scenario);
    assert.equal(answered.evidence[0]?.source, 'correction');
    assert.equal(answered.evidence[0]?.correctionId, made.id);
    assert.match(answered.analysis.saying, /Lisbon/);

    const fixed = await sdk.minds.corrections.fromSimulation(answered.simulationId, { answer: 'Porto, in fact: quieter than Lisbon.' });
    assert.equal(fixed.scenario, scenario);
    assert.equal(fixed.simulationId, answered.simulationId);

    assert.deepEqual(await sdk.minds.corrections.delete(mindId, made.id), { message: 'Correction deleted successfully', correctionId: made.id });
    assert.equal((await failure(sdk.minds.corrections.get(mindId, made.id))).status, 404);
    assert.equal((await failure(sdk.minds.corrections.create(mindId, { scenario: ' ', answer: 'x' }))).status, 400);
    const other = srv.sdk(otherKey);
    assert.equal((await failure(other.minds.corrections.list(mindId).first())).status, 404);
    assert.equal((await failure(other.minds.corrections.fromSimulation(answered.simulationId, { answer: 'Not mine.' }))).status, 404);
  });

  it('makes, lists and revokes review links', async () => {
    const made = await sdk.minds.reviewLinks.create(mindId, { expiresInDays: 2 });
    assert.match(made.url, /\/review\/[A-Za-z0-9_-]{43}$/);
    assert.equal((await fetch(made.url)).status, 200);
    assert.equal((await sdk.minds.reviewLinks.list(mindId)).find((l) => l.id === made.reviewLink.id)?.status, 'active');
    assert.equal((await sdk.minds.reviewLinks.revoke(mindId, made.reviewLink.id)).status, 'revoked');
    assert.equal((await fetch(made.url)).status, 410);
    assert.equal((await failure(sdk.minds.reviewLinks.create(mindId, { expiresInDays: 365 }))).status, 400);
  });
});

describe('the CLI (mindsim, a real process)', () => {
  it('corrects a simulation, lists, adds and deletes corrections, and manages review links', async () => {
    const asked = await ask('What do you do on a Sunday morning?');
    const corrected = await mindsim(['correct', asked.simulationId, 'A long run by the river, then pancakes.', '--note', 'from the CLI']);
    assert.equal(corrected.code, 0, corrected.stderr);
    assert.match(corrected.stdout, /Corrected: asked “What do you do on a Sunday morning\?”/);

    const json = await mindsim(['--json', 'corrections', 'list', mindId]);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as { corrections: Array<{ id: string; answer: string; note: string | null }>; count: number };
    const mine = listed.corrections.find((c) => c.answer === 'A long run by the river, then pancakes.');
    assert.ok(mine && mine.note === 'from the CLI', json.stdout);

    const added = await mindsim(['--json', 'corrections', 'add', mindId, 'Tea or coffee?', 'Tea, always.']);
    assert.equal(added.code, 0, added.stderr);
    const addedId = (JSON.parse(added.stdout) as { correction: { id: string } }).correction.id;
    const human = await mindsim(['corrections', 'ls', mindId]);
    assert.match(human.stdout, /Tea, always\./);
    assert.match(human.stdout, /A long run by the river/);

    const deleted = await mindsim(['corrections', 'delete', mindId, addedId]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, new RegExp(`Deleted correction ${addedId}`));
    const again = await mindsim(['corrections', 'rm', mindId, addedId]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /not found/i);
    const empty = await mindsim(['correct', asked.simulationId, '   ']);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /answer/);

    const link = await mindsim(['review-links', 'create', mindId, '--days', '3']);
    assert.equal(link.code, 0, link.stderr);
    const url = link.stdout.split('\n')[0] ?? '';
    assert.match(url, /\/review\/[A-Za-z0-9_-]{43}$/);
    const links = JSON.parse((await mindsim(['--json', 'review-links', 'list', mindId])).stdout) as { reviewLinks: Array<{ id: string; status: string }> };
    const id = links.reviewLinks[0]?.id ?? '';
    assert.equal(links.reviewLinks[0]?.status, 'active');
    assert.equal((await mindsim(['review-links', 'revoke', mindId, id])).code, 0);
    assert.equal((await fetch(url)).status, 410);
    assert.equal((await mindsim(['review-links', 'create', mindId, '--days', 'soon'])).code, 2);
  });
});

describe('the MCP tools', () => {
  it('correct_answer and list_corrections over HTTP; another account is refused', async () => {
    const asked = await ask('How do you prepare for a difficult meeting?');
    const client = await connect(srv.apiKey);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const t of ['correct_answer', 'list_corrections']) assert.ok(names.includes(t), t);
      const fromSim = await call(client, 'correct_answer', { simulationId: asked.simulationId, answer: 'I write down the three points I must make.' });
      assert.equal(fromSim.correction.scenario, 'How do you prepare for a difficult meeting?');
      const direct = await call(client, 'correct_answer', { mindId, scenario: 'Cats or dogs?', answer: 'Dogs, without a doubt.', note: 'over MCP' });
      assert.equal(direct.correction.note, 'over MCP');
      const listed = await call(client, 'list_corrections', { mindId, limit: 200 });
      const ids = listed.corrections.map((c: { id: string }) => c.id);
      assert.ok(ids.includes(fromSim.correction.id) && ids.includes(direct.correction.id));
      assert.equal(listed.count, listed.corrections.length);
      const both = await callRaw(client, 'correct_answer', { simulationId: asked.simulationId, mindId, scenario: 'x', answer: 'y' });
      assert.ok(both.isError && /either simulationId, or mindId with scenario/.test(both.text), both.text);
      const audit = await sdk.audit.list({ mindId }).all();
      assert.ok(audit.some((e) => e.action === 'correction.create' && e.resourceId === direct.correction.id), 'the MCP correction is in the access log');
    } finally {
      await client.close();
    }
    const other = await connect(otherKey);
    try {
      for (const [name, args] of [
        ['list_corrections', { mindId }],
        ['correct_answer', { simulationId: asked.simulationId, answer: 'Not mine.' }],
        ['correct_answer', { mindId, scenario: 'x', answer: 'y' }],
      ] as const) {
        const r = await callRaw(other, name, args);
        assert.ok(r.isError, `${name}: ${r.text}`);
        assert.match(r.text, /API Error \(404\): .*_NOT_FOUND/);
      }
    } finally {
      await other.close();
    }
  });

  it('correct_answer and list_corrections over stdio (mindsim mcp, through the SDK)', async () => {
    const asked = await ask('What would you cook for friends?');
    const client = await stdioClient(srv, 'test');
    try {
      const made = await call(client, 'correct_answer', { simulationId: asked.simulationId, answer: 'A big pot of jollof rice.' });
      assert.equal(made.correction.simulationId, asked.simulationId);
      const listed = await call(client, 'list_corrections', { mindId });
      assert.ok(listed.corrections.some((c: { id: string }) => c.id === made.correction.id));
    } finally {
      await client.close();
    }
  });
});
