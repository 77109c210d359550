import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startService, type Service } from '../testkit/service.ts';
import type { TestSdk } from '../testkit/sdk.ts';
import { WebClient } from './support/web.ts';

/**
 * Minds, tags and search through the other clients (issue 14): the MCP tools get_all_minds and
 * search_minds over HTTP with the official SDK client, the `mindsim` CLI as a process, and the
 * dashboard's list filter and tags form over HTTP (pages as a browser without JavaScript gets them).
 */
let srv: Service;
let sdk: TestSdk;
let other: { apiKey: string; sdk: TestSdk };
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'mindsim.js');

before(async () => {
  srv = await startService({ RUN_WORKER: 'false' });
  sdk = srv.sdk();
  const b = await srv.admin.createAccount('clients-other@example.com', 'standard');
  other = { apiKey: b.apiKey, sdk: srv.sdk(b.apiKey) };
  await sdk.minds.create({ name: 'Grace Hopper', email: 'grace@navy.example', tags: ['Navy', 'Compilers'] });
  await sdk.minds.create({ name: 'Alan Turing', tags: ['Compilers'] });
  await other.sdk.minds.create({ name: 'Grace Other', tags: ['Navy'] });
});
after(() => srv?.close());

describe('MCP tools get_all_minds and search_minds', () => {
  const connect = async (key: string) => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    return { isError: r.isError === true, text, json: () => JSON.parse(text) };
  };

  it('answer what GET /minds and GET /minds/search answer, for the key’s account only', async () => {
    const client = await connect(srv.apiKey);
    try {
      const tools = (await client.listTools()).tools;
      const all = tools.find((t) => t.name === 'get_all_minds');
      const search = tools.find((t) => t.name === 'search_minds');
      assert.deepEqual(all?.inputSchema.required ?? [], [], 'get_all_minds needs no argument');
      assert.deepEqual(search?.inputSchema.required, ['query']);

      const api = await fetch(`${srv.api}/minds`, { headers: { authorization: `Bearer ${srv.apiKey}` } }).then((r) => r.json());
      assert.deepEqual((await call(client, 'get_all_minds', {})).json(), api);
      assert.deepEqual((await call(client, 'get_all_minds', { tags: ['navy'] })).json().minds.map((m: { name: string }) => m.name), ['Grace Hopper']);
      const found = (await call(client, 'search_minds', { query: 'GRACE' })).json();
      assert.deepEqual([found.count, found.minds.map((m: { name: string }) => m.name)], [1, ['Grace Hopper']]);
      assert.deepEqual(found, await sdk.minds.search('GRACE'));
      assert.equal((await call(client, 'search_minds', { query: 'navy.example' })).json().minds[0].email, 'grace@navy.example');
      const bad = await call(client, 'search_minds', { query: '' });
      assert.ok(bad.isError, 'an empty query is refused');
    } finally {
      await client.close();
    }
    const theirs = await connect(other.apiKey);
    try {
      assert.deepEqual((await call(theirs, 'search_minds', { query: 'grace' })).json().minds.map((m: { name: string }) => m.name), ['Grace Other']);
      assert.doesNotMatch((await call(theirs, 'get_all_minds', {})).text, /Hopper|Turing|Compilers/);
    } finally {
      await theirs.close();
    }
  });

  it('answer the same over stdio (`mindsim mcp`, through the SDK)', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        cwd: os.tmpdir(),
        env: { ...(process.env as Record<string, string>), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey },
        stderr: 'pipe',
      }),
    );
    try {
      assert.deepEqual((await call(client, 'search_minds', { query: 'grace' })).json(), await sdk.minds.search('grace'));
      assert.deepEqual((await call(client, 'get_all_minds', { limit: 1 })).json(), { minds: (await sdk.minds.list({ limit: 1 }).pages().next()).value });
      assert.deepEqual((await call(client, 'get_all_minds', { tags: ['COMPILERS'] })).json().minds.map((m: { name: string }) => m.name), ['Alan Turing', 'Grace Hopper']);
    } finally {
      await client.close();
    }
  });
});

describe('mindsim CLI: minds ls --tag, minds search, minds tag, tags ls|rename|rm', () => {
  let home: string;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'mindsim-cli-tags-'));
  });
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  const mindsim = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string; json: () => any }>((resolve) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey };
      execFile(process.execPath, [BIN, ...args], { cwd: home, env }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, json: () => JSON.parse(stdout) });
      });
    });

  it('lists by tag, searches, sets tags and manages them, with --json and as text', async () => {
    const made = await sdk.minds.create('Cli Person');
    const [tagged, byTag, byTwo, search, text, none] = await Promise.all([
      mindsim('minds', 'tag', made.mind.id, 'Cli-Tag', 'Second Tag', '--json'),
      mindsim('minds', 'ls', '--tag', 'navy', '--json'),
      mindsim('minds', 'ls', '--tag', 'Navy', '--tag', 'compilers', '--json'),
      mindsim('minds', 'search', 'hopper', '--json'),
      mindsim('minds', 'ls', '--tag', 'Compilers'),
      mindsim('minds', 'tag', made.mind.id),
    ]);
    assert.equal(tagged.code, 0, tagged.stderr);
    assert.deepEqual(tagged.json().mind.tags.map((t: { name: string }) => t.name), ['Cli-Tag', 'Second Tag']);
    assert.deepEqual(byTag.json().minds.map((m: { name: string }) => m.name), ['Grace Hopper']);
    assert.deepEqual(byTwo.json().minds.map((m: { name: string }) => m.name), ['Alan Turing', 'Grace Hopper']);
    assert.deepEqual([search.json().count, search.json().minds[0].name], [1, 'Grace Hopper']);
    assert.match(text.stdout, /Alan Turing {2}\[Compilers\]/);
    assert.equal(none.code, 2, 'no names and no --clear is a usage error');

    const tags = await mindsim('tags', 'ls', '--json');
    const cli = tags.json().tags.find((t: { name: string }) => t.name === 'Cli-Tag');
    const second = tags.json().tags.find((t: { name: string }) => t.name === 'Second Tag');
    const renamed = await mindsim('tags', 'rename', cli.id, 'CLI Renamed', '--json');
    assert.deepEqual(renamed.json(), { tag: { id: cli.id, name: 'CLI Renamed' } });
    const clash = await mindsim('tags', 'rename', cli.id, 'navy', '--json');
    assert.deepEqual([clash.code, clash.json().code], [1, 'TAG_NAME_TAKEN']);
    assert.deepEqual((await mindsim('tags', 'rm', second.id, '--json')).json(), { message: 'Tag deleted successfully', tagId: second.id });
    const cleared = await mindsim('minds', 'tag', made.mind.id, '--clear', '--json');
    assert.deepEqual(cleared.json().mind.tags, []);
    assert.match((await mindsim('tags', 'ls')).stdout, /CLI Renamed/);
  });
});

describe('dashboard: tags on the minds list, a tag filter, and the tags form on a mind page', () => {
  it('shows, filters and sets tags; another account sees none of them', async () => {
    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.signUp('tags-web@example.com', 'a long enough password')).status, 303);
    const created = await web.submit('/minds', { name: 'Web Person' }, '/minds');
    const mindPath = created.headers.get('location') ?? '';
    assert.match(mindPath, /^\/minds\/[0-9a-f-]{36}$/);
    await web.submit('/minds', { name: 'Untagged Person' }, '/minds');

    const set = await web.submit(`${mindPath}/tags`, { tags: 'Design,  Research & Dev , design' }, mindPath);
    assert.deepEqual([set.status, set.headers.get('location')], [303, mindPath]);
    const page = await web.get(mindPath);
    assert.match(page.text, /<a href="\/minds\?tag=Design" class="chip">Design<\/a>/);
    assert.match(page.text, /value="Design, Research &amp; Dev"/, 'the form holds the current tags, escaped');

    const list = await web.get('/minds');
    assert.match(list.text, /<nav aria-label="Filter by tag"/);
    assert.match(list.text, /href="\/minds\?tag=Research%20%26%20Dev" class="chip"/);
    assert.match(list.text, /Untagged Person/);
    const filtered = await web.get('/minds?tag=research%20%26%20dev');
    assert.match(filtered.text, /Web Person/);
    assert.doesNotMatch(filtered.text, /Untagged Person/);
    assert.match(filtered.text, /aria-current="page">Research &amp; Dev</);
    assert.match((await web.get('/minds?tag=nothing')).text, /No mind carries this tag/);

    const tooLong = await web.submit(`${mindPath}/tags`, { tags: 'x'.repeat(101) }, mindPath);
    assert.equal(tooLong.status, 400);
    assert.equal((await web.submit(`${mindPath}/tags`, { tags: '' }, mindPath)).status, 303);
    assert.doesNotMatch((await web.get(mindPath)).text, /class="chip">Design/, 'an empty field clears the tags');

    const stranger = new WebClient(srv.baseUrl);
    await stranger.signUp('tags-web-other@example.com', 'a long enough password');
    assert.equal((await stranger.submit(`${mindPath}/tags`, { tags: 'Stolen' }, '/minds')).status, 404);
    assert.doesNotMatch((await stranger.get('/minds')).text, /Research|Design|Web Person/);
  });
});
