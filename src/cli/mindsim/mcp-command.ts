import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ApiError, type ConsentInput, type MindsimClient, type RedactionMode } from '@mindsim/sdk';
import type { PanelToolRequest } from '../../mcp/panel-tools.ts';
import type { SimulateToolRequest } from '../../mcp/simulation-tools.ts';
import type { CorrectionInput } from '../../mcp/correction-tools.ts';
import type { MindsimBackend, UploadRequest } from '../../mcp/tools.ts';
import type { FileUpload } from '../../mcp/upload-tools.ts';
import type { ConsentToolInput } from '../../mcp/mind-tools.ts';
import { clientFrom } from './config.ts';
import { uploadLocalFile } from './mcp-file-upload.ts';

/** The MCP tools over the SDK, against MINDSIM_BASE_URL. */
class SdkBackend implements MindsimBackend {
  /** Origins of the signed URLs answered in this session (S3 direct uploads point away from the service). */
  private readonly signedOrigins = new Set<string>();

  private readonly client: MindsimClient;
  constructor(client: MindsimClient) {
    this.client = client;
  }

  createMind(name: string) {
    return this.client.minds.create(name);
  }

  setRedaction(mindId: string, redaction: RedactionMode) {
    return this.client.minds.setRedaction(mindId, redaction);
  }

  async listMinds(limit: number) {
    const minds = [];
    for await (const m of this.client.minds.list({ limit: Math.min(limit, 100) })) {
      minds.push(m);
      if (minds.length >= limit) break;
    }
    return minds;
  }

  async allMinds({ limit, tags }: { limit: number; tags?: string[] }) {
    for await (const minds of this.client.minds.list({ limit, tags }).pages()) return { minds };
    return { minds: [] };
  }

  searchMinds(query: string, limit: number) {
    return this.client.minds.search(query, { limit });
  }

  setConsent(mindId: string, consent: ConsentToolInput) {
    return this.client.minds.put(mindId, { consent: consent as ConsentInput });
  }

  async uploadTranscript({ mindId, transcript, digitalTwinId, speaker }: UploadRequest) {
    if (transcript.kind !== 'path') throw new Error('Give the path of a local transcript file.');
    const file = path.resolve(transcript.path);
    const { size } = await fs.promises.stat(file);
    const up = await this.client.uploads.upload(mindId, fs.createReadStream(file), { fileName: path.basename(file), size });
    return this.client.snapshots.create(mindId, { artifactId: up.artifactId, digitalTwinId, speaker });
  }

  async signedUploadUrl(mindId: string, opts: { contentType?: string; fileName?: string }) {
    const signed = await this.client.uploads.signedUrl(mindId, opts);
    this.signedOrigins.add(new URL(signed.signedUrl).origin);
    return signed;
  }

  uploadFile(upload: FileUpload) {
    return uploadLocalFile(this.client, this.signedOrigins, upload);
  }

  createSnapshot(mindId: string, digitalTwinId: string, artifactId: string) {
    return this.client.snapshots.create(mindId, { artifactId, digitalTwinId });
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

  async correctSimulation(simulationId: string, input: CorrectionInput) {
    return { correction: await this.client.minds.corrections.fromSimulation(simulationId, input) };
  }

  async createCorrection(mindId: string, input: CorrectionInput & { scenario: string }) {
    return { correction: await this.client.minds.corrections.create(mindId, input) };
  }

  listCorrections(mindId: string, limit: number) {
    return this.client.minds.corrections.list(mindId, { limit }).first();
  }

  async createPanel(req: PanelToolRequest) {
    return (await this.client.panels.create(req)).panel;
  }

  async getPanel(panelId: string) {
    return (await this.client.panels.get(panelId)).panel;
  }

  panelAnswers(panelId: string, q: { limit: number; questionId?: string }) {
    return this.client.panels.answers(panelId, q);
  }
}

/** `mindsim mcp`: the service's MCP tools over stdio, for MCP clients that launch a command. */
export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server over stdio (tools: create_mind, get_signed_upload_url, upload_file_to_signed_url, create_snapshot, simulate, list_simulations, run_panel, get_panel, …)')
    .action(async () => {
      // Loaded only here: the MCP SDK is the heaviest import and no other command needs it.
      const { createMcpServer } = await import('../../mcp/tools.ts');
      const { ApiFailure, translatingErrors } = await import('../../mcp/results.ts');
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      // The API's error answers as the hosted server reports them: status and error body.
      const apiFailure = (err: unknown) => (err instanceof ApiError ? new ApiFailure(err.status, err.body) : err);
      const server = createMcpServer(translatingErrors(new SdkBackend(clientFrom()), apiFailure), 'stdio');
      await server.connect(new StdioServerTransport());
      await new Promise<void>((resolve) => {
        server.server.onclose = () => resolve();
        process.stdin.once('end', () => resolve());
      });
    });
}
