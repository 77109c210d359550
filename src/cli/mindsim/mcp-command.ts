import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { MindsimClient } from '@mindsim/sdk';
import type { SimulateToolRequest } from '../../mcp/simulation-tools.ts';
import type { MindsimBackend, UploadRequest } from '../../mcp/tools.ts';
import { clientFrom } from './config.ts';

/** The MCP tools over the SDK, against MINDSIM_BASE_URL. */
class SdkBackend implements MindsimBackend {
  constructor(private readonly client: MindsimClient) {}

  createMind(name: string) {
    return this.client.minds.create(name);
  }

  async listMinds(limit: number) {
    const minds = [];
    for await (const m of this.client.minds.list({ limit: Math.min(limit, 100) })) {
      minds.push(m);
      if (minds.length >= limit) break;
    }
    return minds;
  }

  async uploadTranscript({ mindId, transcript, digitalTwinId, speaker }: UploadRequest) {
    if (transcript.kind !== 'path') throw new Error('Give the path of a local transcript file.');
    const file = path.resolve(transcript.path);
    const { size } = await fs.promises.stat(file);
    const up = await this.client.uploads.upload(mindId, fs.createReadStream(file), { fileName: path.basename(file), size });
    return this.client.snapshots.create(mindId, { artifactId: up.artifactId, digitalTwinId, speaker });
  }

  snapshotStatus(mindId: string, snapshotId: string) {
    return this.client.snapshots.status(mindId, snapshotId);
  }

  simulate({ mindId, message, model, conversationId }: SimulateToolRequest) {
    return this.client.simulate({ mindId, selectedSimulationModel: model, scenario: { message }, conversationId });
  }

  listSimulations(q: { mindId?: string; limit: number; offset: number }) {
    return this.client.simulations.list(q);
  }

  getSimulation(simulationId: string) {
    return this.client.simulations.get(simulationId);
  }

  getProfile(mindId: string) {
    return this.client.minds.profile(mindId);
  }
}

/** `mindsim mcp`: the service's MCP tools over stdio, for MCP clients that launch a command. */
export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server over stdio (tools: create_mind, list_minds, upload_transcript, simulate, list_simulations, …)')
    .action(async () => {
      // Loaded only here: the MCP SDK is the heaviest import and no other command needs it.
      const { createMcpServer } = await import('../../mcp/tools.ts');
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = createMcpServer(new SdkBackend(clientFrom()), 'stdio');
      await server.connect(new StdioServerTransport());
      await new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
      });
    });
}
