import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { stdioClient } from './support/mcp-client.ts';
import { startService, type Service } from '../testkit/service.ts';
import { waitUntil } from '../testkit/wait.ts';

/**
 * The hosted MCP server's tools (HOSTED-API.md §5) with its names, argument schemas and result
 * format, over /mcp (HTTP) and `mindsim mcp` (stdio), through the official MCP SDK client:
 * create_mind → get_signed_upload_url → upload_file_to_signed_url → create_snapshot → get_snapshot_status.
 */
let srv: Service;
let other: { accountId: string; apiKey: string };
const NIL = '00000000-0000-4000-8000-000000000000';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-hosted-'));
const vttFile = path.join(dir, 'interview.vtt');
fs.writeFileSync(vttFile, teamsVtt(sampleInterview()));

before(async () => {
  srv = await startService();
  other = await srv.admin.createAccount('other-mcp@example.com', 'standard');
});
after(async () => {
  await srv?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** A successful tool result: the API's JSON, pretty-printed as the hosted server prints it. */
async function ok(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = textOf(r);
  assert.ok(!r.isError, `${name} failed: ${text}`);
  const value = JSON.parse(text);
  assert.equal(text, JSON.stringify(value, null, 2), 'pretty-printed JSON, two spaces');
  return value;
}

/** A failed tool result's text. */
async function failed(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(r.isError, true, `${name} should fail: ${textOf(r)}`);
  return textOf(r);
}

/** `Error: API Error (<status>): <body JSON>`, as the hosted server words an API error; answers the body. */
function apiError(text: string, status: number, code: string) {
  const m = /^Error: API Error \((\d{3})\): (\{.*\})$/s.exec(text);
  assert.ok(m, `not the hosted error format: ${text}`);
  assert.equal(Number(m[1]), status, text);
  const body = JSON.parse(m[2] ?? '');
  assert.equal(body.error, { 400: 'Bad Request', 404: 'Not Found', 409: 'Conflict' }[status]);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.requestId, 'string');
  return body;
}

async function toolSchemas(client: Client) {
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
  const shape = (name: string) => {
    const s = tools.get(name);
    assert.ok(s, `tool ${name}`);
    return { properties: Object.keys(s.properties ?? {}).sort(), required: [...(s.required ?? [])].sort() };
  };
  assert.deepEqual(shape('create_mind'), { properties: ['name'], required: ['name'] });
  assert.deepEqual(shape('get_signed_upload_url'), { properties: ['contentType', 'fileName', 'mindId'], required: ['mindId'] });
  assert.deepEqual(shape('upload_file_to_signed_url'), { properties: ['contentType', 'filePath', 'signedUrl'], required: ['filePath', 'signedUrl'] });
  assert.deepEqual(shape('create_snapshot'), { properties: ['artifactId', 'digitalTwinId', 'mindId'], required: ['artifactId', 'digitalTwinId', 'mindId'] });
  assert.deepEqual(shape('get_snapshot_status'), { properties: ['mindId', 'snapshotId', 'waitSeconds'], required: ['mindId', 'snapshotId'] });
  for (const ours of ['upload_transcript', 'get_profile', 'list_minds']) assert.ok(tools.has(ours), `our tool ${ours} stays`);
}

/**
 * The hosted flow; `upload` puts the file to the signed URL (the tool over stdio, the caller itself
 * over HTTP). Answers the ids, for the failure cases.
 */
async function hostedFlow(client: Client, upload: (signedUrl: string) => Promise<void>) {
  await toolSchemas(client);
  const created = await ok(client, 'create_mind', { name: 'Sam Okafor' });
  assert.equal(created.digitalTwin.mindId, created.mind.id);
  const signed = await ok(client, 'get_signed_upload_url', { mindId: created.mind.id, contentType: 'text/vtt', fileName: 'interview.vtt' });
  assert.match(signed.signedUrl, /^http:\/\/127\.0\.0\.1:\d+\/uploads\//);
  assert.match(signed.fileName, /\.vtt$/);
  await upload(signed.signedUrl);
  const started = await ok(client, 'create_snapshot', { mindId: created.mind.id, digitalTwinId: created.digitalTwin.id, artifactId: signed.artifactId });
  assert.deepEqual(Object.keys(started).sort(), ['artifactId', 'message', 'mindAssessmentId']);
  assert.equal(started.artifactId, signed.artifactId);
  const status = await waitUntil(
    async () => {
      const s = await ok(client, 'get_snapshot_status', { mindId: created.mind.id, snapshotId: started.mindAssessmentId });
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    { what: 'the snapshot made through MCP final' },
  );
  assert.equal(status.status, 'completed', JSON.stringify(status));
  assert.equal(status.id, started.mindAssessmentId);
  return { mindId: created.mind.id as string, twinId: created.digitalTwin.id as string, signed, snapshotId: started.mindAssessmentId as string };
}

describe('hosted MCP tools over HTTP (/mcp)', () => {
  const connect = async (key: string, headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'hosted-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } } });
    await client.connect(transport);
    return client;
  };

  it('runs the flow; upload_file_to_signed_url is a clear isError that never reads the server disk', async () => {
    const client = await connect(srv.apiKey);
    try {
      const ids = await hostedFlow(client, async (signedUrl) => {
        // The server's own disk has this file, yet the tool must not read it for the caller.
        const text = await failed(client, 'upload_file_to_signed_url', { signedUrl, filePath: vttFile, contentType: 'text/vtt' });
        assert.match(text, /^Error: upload_file_to_signed_url .*cannot read your files\. .*upload_transcript/);
        // Nothing was uploaded (the URL still takes its one upload): the caller PUTs the file itself.
        const res = await fetch(signedUrl, { method: 'PUT', headers: { 'content-type': 'text/vtt' }, body: fs.readFileSync(vttFile) });
        assert.equal(res.status, 200, await res.clone().text());
        assert.equal(((await res.json()) as { artifactId: string }).artifactId, new URL(signedUrl).pathname.split('/').pop());
      });
      // Failures: the API's status and flat error body, with this request's id.
      const notFound = apiError(await failed(client, 'get_snapshot_status', { mindId: ids.mindId, snapshotId: NIL }), 404, 'SNAPSHOT_NOT_FOUND');
      assert.match(notFound.message, /snapshot/i);
      apiError(await failed(client, 'create_snapshot', { mindId: NIL, digitalTwinId: ids.twinId, artifactId: ids.signed.artifactId }), 404, 'MIND_NOT_FOUND');
      const signed = await ok(client, 'get_signed_upload_url', { mindId: ids.mindId });
      apiError(await failed(client, 'create_snapshot', { mindId: ids.mindId, digitalTwinId: ids.twinId, artifactId: signed.artifactId }), 409, 'ARTIFACT_NOT_UPLOADED');
      apiError(await failed(client, 'get_signed_upload_url', { mindId: NIL }), 404, 'MIND_NOT_FOUND');

      // Another account sees none of it.
      const b = await connect(other.apiKey, { 'x-request-id': 'mcp-hosted-b' });
      try {
        const body = apiError(await failed(b, 'get_signed_upload_url', { mindId: ids.mindId }), 404, 'MIND_NOT_FOUND');
        assert.equal(body.requestId, 'mcp-hosted-b', "the /mcp request's id");
        apiError(await failed(b, 'create_snapshot', { mindId: ids.mindId, digitalTwinId: ids.twinId, artifactId: signed.artifactId }), 404, 'MIND_NOT_FOUND');
        apiError(await failed(b, 'get_snapshot_status', { mindId: ids.mindId, snapshotId: ids.snapshotId }), 404, 'MIND_NOT_FOUND');
      } finally {
        await b.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe('hosted MCP tools over stdio (mindsim mcp)', () => {
  it('runs the flow with a real local file, and names what is wrong with a bad one', async () => {
    const client = await stdioClient(srv, 'hosted-test');
    try {
      let used = '';
      const ids = await hostedFlow(client, async (signedUrl) => {
        used = signedUrl;
        const uploaded = await ok(client, 'upload_file_to_signed_url', { signedUrl, filePath: vttFile, contentType: 'text/vtt' });
        assert.deepEqual(uploaded, { success: true, message: 'File uploaded successfully', uploadedBytes: fs.statSync(vttFile).size, fileName: 'interview.vtt' });
      });

      // The file: relative, missing, a folder, over the limit (a sparse file: no 50 MB written).
      const signed = await ok(client, 'get_signed_upload_url', { mindId: ids.mindId });
      const upload = (filePath: string, signedUrl = signed.signedUrl as string) => failed(client, 'upload_file_to_signed_url', { signedUrl, filePath });
      assert.equal(await upload('interview.vtt'), 'Error: filePath must be an absolute path; got "interview.vtt".');
      assert.equal(await upload(path.join(dir, 'missing.vtt')), `Error: Cannot read ${path.join(dir, 'missing.vtt')}: no such file.`);
      assert.equal(await upload(dir), `Error: ${dir} is not a file.`);
      const big = path.join(dir, 'big.vtt');
      fs.closeSync(fs.openSync(big, 'w'));
      fs.truncateSync(big, 50 * 1024 * 1024 + 1);
      assert.match(await upload(big), /^Error: .*big\.vtt is 52428801 bytes, over the upload limit of 52428800 bytes/);
      // Only to this service: a local file is never sent to another address.
      assert.match(await upload(vttFile, 'http://example.invalid/uploads/x'), /^Error: signedUrl points to http:\/\/example\.invalid, which is not this service/);
      // The API's own errors keep the hosted format: a signed URL is good for one upload.
      apiError(await upload(vttFile, used), 409, 'SIGNED_URL_USED');
      apiError(await failed(client, 'create_snapshot', { mindId: NIL, digitalTwinId: ids.twinId, artifactId: signed.artifactId }), 404, 'MIND_NOT_FOUND');
      apiError(await failed(client, 'get_snapshot_status', { mindId: ids.mindId, snapshotId: NIL }), 404, 'SNAPSHOT_NOT_FOUND');
    } finally {
      await client.close();
    }
  });
});
