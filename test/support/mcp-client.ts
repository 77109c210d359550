import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { ServiceAddress } from '../../testkit/process.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The official MCP client connected to `mindsim mcp` (stdio) as an agent starts it, against a service. */
export async function stdioClient(srv: Pick<ServiceAddress, 'baseUrl' | 'apiKey'>, name = 'test'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'bin', 'mindsim.js'), 'mcp'],
    cwd: os.tmpdir(),
    env: { ...(process.env as Record<string, string>), MINDSIM_BASE_URL: srv.baseUrl, MINDSIM_API_KEY: srv.apiKey },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The official MCP client connected to the service's `/mcp` endpoint (streamable HTTP) with an API key. */
export async function httpClient(srv: Pick<ServiceAddress, 'baseUrl'>, key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** Calls a tool and answers whether it failed and its text. */
export async function callRaw(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: r.isError === true, text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join('') };
}

/** Calls a tool that must succeed and answers its JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await callRaw(client, name, args);
  assert.ok(!r.isError, `${name} failed: ${r.text}`);
  return JSON.parse(r.text);
}
