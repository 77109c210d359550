import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { makeDocx, sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { stdioClient } from '../support/mcp-client.ts';
import { startService, type Service } from '../../testkit/service.ts';

/** MCP at /mcp against the in-process service; `mindsim mcp` (stdio) as the process an agent starts. */
let srv: Service;
const TOOLS = [
  'create_mind',
  'create_snapshot',
  'get_panel',
  'get_profile',
  'get_signed_upload_url',
  'get_snapshot_status',
  'list_minds',
  'run_panel',
  'simulate',
  'upload_file_to_signed_url',
  'upload_transcript',
];

before(async () => {
  srv = await startService();
});
after(() => srv?.close());

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  assert.ok(!r.isError, `${name} failed: ${text}`);
  return JSON.parse(text);
}

/** The whole flow an agent follows: create a mind, upload, wait for completed, simulate. */
async function flow(client: Client, transcript: Record<string, unknown>) {
  const tools = (await client.listTools()).tools;
  for (const name of TOOLS) assert.ok(tools.some((t) => t.name === name), `tool ${name}`);
  const created = await call(client, 'create_mind', { name: 'Sam Okafor' });
  assert.ok((await call(client, 'list_minds', {})).some((m: { id: string }) => m.id === created.mind.id));
  const started = await call(client, 'upload_transcript', { mindId: created.mind.id, digitalTwinId: created.digitalTwin.id, ...transcript });
  const status = await call(client, 'get_snapshot_status', { mindId: created.mind.id, snapshotId: started.mindAssessmentId, waitSeconds: 30 });
  assert.equal(status.status, 'completed', JSON.stringify(status));
  const sim = await call(client, 'simulate', { mindId: created.mind.id, message: 'How do you feel about working remotely?' });
  assert.ok(sim.evidence.length > 0);
  for (const k of ['thinking', 'feeling', 'saying', 'acting']) assert.equal(typeof sim.analysis[k], 'string');
  const profile = await call(client, 'get_profile', { mindId: created.mind.id });
  assert.equal(profile.mindId, created.mind.id);
  assert.ok(profile.topics.length > 0);
  return created.mind.id as string;
}

describe('MCP over Streamable HTTP at /mcp', () => {
  const connect = async (key: string) => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    await client.connect(transport);
    return client;
  };

  it('401 without a valid API key', async () => {
    const res = await fetch(`${srv.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    const body = (await res.json()) as { code: string; details: { reason: string } };
    assert.deepEqual([body.code, body.details.reason], ['AUTH_FAILED', 'missing_api_key']);
    await assert.rejects(connect('msk_00000000_wrong'), /401|invalid_api_key/);
  });

  it('lists the tools and runs the flow with a VTT as text and a DOCX as base64', async () => {
    const client = await connect(srv.apiKey);
    try {
      await flow(client, { fileName: 'interview.vtt', text: teamsVtt(sampleInterview()) });
      await flow(client, { fileName: 'talk.docx', contentBase64: (await makeDocx(sampleInterview())).toString('base64') });
      const r = (await client.callTool({ name: 'simulate', arguments: { mindId: '00000000-0000-4000-8000-000000000000', message: 'Hi' } })) as CallToolResult;
      assert.equal(r.isError, true);
      assert.match(r.content[0]?.type === 'text' ? r.content[0].text : '', /^Error: API Error \(404\): \{"error":"Not Found",.*"code":"MIND_NOT_FOUND"/);
    } finally {
      await client.close();
    }
  });
});

describe('MCP over stdio (mindsim mcp)', () => {
  it('lists the tools and runs the flow with a local file path through the SDK', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-')), 'interview.vtt');
    fs.writeFileSync(file, teamsVtt(sampleInterview()));
    const client = await stdioClient(srv, 'test');
    try {
      await flow(client, { path: file });
    } finally {
      await client.close();
    }
  });
});
