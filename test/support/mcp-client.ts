import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
