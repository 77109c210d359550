import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AuthContext } from '../../domain/accounts.ts';
import { DomainError, tooLarge } from '../../kernel/errors.ts';
import { ApiFailure, translatingErrors } from '../../mcp/results.ts';
import type { PanelToolRequest } from '../../mcp/panel-tools.ts';
import type { SimulateToolRequest } from '../../mcp/simulation-tools.ts';
import type { CorrectionInput } from '../../mcp/correction-tools.ts';
import type { MindsimBackend, UploadRequest } from '../../mcp/tools.ts';
import type { ConsentToolInput } from '../../mcp/mind-tools.ts';
import type { RedactionMode } from '../../privacy/kinds.ts';
import { ConsentInput } from '../schemas/consent.ts';
import { authOf } from '../plugins/auth.ts';
import { auditingBackend } from '../plugins/audit-mcp.ts';
import { RATE_LIMIT_HEADERS } from '../plugins/rate-limit.ts';
import { apiPipeline } from '../plugins/api-pipeline.ts';
import { STATUS, errorBody, fieldProblems, sendError, validationFailed } from '../plugins/errors.ts';
import type { HttpSettings, Services } from '../services.ts';

/** The MCP tools over the domain services, as the authenticated account. */
export class ServiceBackend implements MindsimBackend {
  private readonly s: Services;
  private readonly cfg: HttpSettings;
  private readonly auth: AuthContext;
  constructor(s: Services, cfg: HttpSettings, auth: AuthContext) {
    this.s = s;
    this.cfg = cfg;
    this.auth = auth;
  }

  createMind(name: string) {
    return this.s.minds.create(this.auth, name);
  }

  async setRedaction(mindId: string, redaction: RedactionMode) {
    return { success: true as const, mind: await this.s.minds.update(this.auth, mindId, { redaction }) };
  }

  async listMinds(limit: number) {
    return (await this.s.minds.list(this.auth, limit)).items;
  }

  async allMinds({ limit, tags }: { limit: number; tags?: string[] }) {
    return { minds: (await this.s.minds.list(this.auth, limit, undefined, tags)).items };
  }

  searchMinds(query: string, limit: number) {
    return this.s.minds.search(this.auth, query, limit);
  }

  async setConsent(mindId: string, consent: ConsentToolInput) {
    // Checked as PUT /minds/{mindId} checks it (the same schema: what a granted consent needs, dates in UTC).
    const parsed = ConsentInput.safeParse(consent);
    if (!parsed.success) throw validationFailed(fieldProblems(parsed.error.issues, 'consent'));
    return { success: true as const, ...(await this.s.minds.change(this.auth, mindId, { consent: parsed.data })) };
  }

  async uploadTranscript({ mindId, transcript, digitalTwinId, speaker }: UploadRequest) {
    if (transcript.kind !== 'content') throw new Error('Send the transcript content over HTTP.');
    if (transcript.bytes.length > this.cfg.maxDirectFileBytes) throw tooLarge(this.cfg.maxDirectFileBytes, 'The transcript');
    const file = { bytes: transcript.bytes, fileName: transcript.fileName };
    return this.s.snapshots.createFromFile(this.auth, mindId, file, { digitalTwinId, speaker });
  }

  signedUploadUrl(mindId: string, opts: { contentType?: string; fileName?: string }) {
    return this.s.uploads.createSignedUrl(this.auth, mindId, opts);
  }

  createSnapshot(mindId: string, digitalTwinId: string, artifactId: string) {
    return this.s.snapshots.createFromArtifact(this.auth, mindId, artifactId, { digitalTwinId });
  }

  snapshotStatus(mindId: string, snapshotId: string) {
    return this.s.snapshots.status(this.auth, mindId, snapshotId);
  }

  simulate({ mindId, message, model, conversationId }: SimulateToolRequest) {
    return this.s.simulation.simulate(this.auth, { mindId, selectedSimulationModel: model, scenario: { message }, conversationId });
  }

  listSimulations(q: { mindId?: string; limit: number; offset: number }) {
    return this.s.simulations.list(this.auth, q);
  }

  getSimulation(simulationId: string) {
    return this.s.simulations.get(this.auth, simulationId);
  }

  getProfile(mindId: string) {
    return this.s.profiles.profile(this.auth, mindId);
  }

  async correctSimulation(simulationId: string, input: CorrectionInput) {
    return { correction: await this.s.corrections.fromSimulation(this.auth, simulationId, input) };
  }

  async createCorrection(mindId: string, input: CorrectionInput & { scenario: string }) {
    return { correction: await this.s.corrections.create(this.auth, mindId, input) };
  }

  async listCorrections(mindId: string, limit: number) {
    const page = await this.s.corrections.list(this.auth, mindId, limit);
    return { corrections: page.items, count: page.count };
  }

  createPanel(req: PanelToolRequest) {
    return this.s.panels.create(this.auth, req);
  }

  getPanel(panelId: string) {
    return this.s.panels.get(this.auth, panelId);
  }

  panelAnswers(panelId: string, q: { limit: number; questionId?: string }) {
    return this.s.panels.answers(this.auth, panelId, { ...q, offset: 0 });
  }
}

/** A domain error as the API would have answered it (status and flat error body, with this request's id). */
const asApiFailure = (requestId: string) => (err: unknown) => {
  if (!(err instanceof DomainError)) return err;
  const status = STATUS[err.kind];
  return new ApiFailure(status, errorBody(status, err.code, err.message, err.details, requestId));
};

/** The MCP SDK and the tools, loaded with the first MCP request: a process nobody calls over MCP never loads them. */
let mcpModules: Promise<[typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('../../mcp/tools.ts')]> | undefined;
const loadMcp = () =>
  (mcpModules ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('../../mcp/tools.ts')]));

/**
 * MCP Streamable HTTP transport at `/mcp`, stateless: each POST gets its own server and transport,
 * authenticated with the same Bearer API key as the public API, limited and metered per key like
 * it. GET (a standalone SSE stream) and DELETE (ending a session) have no meaning without sessions
 * and answer 405.
 */
export const mcpRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsync =>
  async (app) => {
    // The public API's pipeline: the same keys, per-key limits (the same windows) and usage meter.
    await app.register(apiPipeline, { services: s });
    // A base64 transcript of the largest direct file size, plus the JSON-RPC envelope.
    const bodyLimit = Math.ceil((cfg.maxDirectFileBytes * 4) / 3) + 64 * 1024;

    app.post('/mcp', { bodyLimit, schema: { hide: true } }, async (req, reply) => {
      const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadMcp();
      const auth = authOf(req);
      // Each tool call that reads content is in the access log before its result is written (plugins/audit-mcp.ts).
      const backend = translatingErrors(auditingBackend(new ServiceBackend(s, cfg, auth), auth, s.accessLog, req.ip), asApiFailure(req.id));
      const server = createMcpServer(backend, 'http');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.setHeader('X-Request-Id', req.id);
      for (const h of RATE_LIMIT_HEADERS) {
        const v = reply.getHeader(h);
        if (v !== undefined) reply.raw.setHeader(h, v); // the transport writes the response itself
      }
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    });

    const notAllowed = async (_req: unknown, reply: FastifyReply) =>
      sendError(reply.header('Allow', 'POST'), 405, 'method_not_allowed', 'This MCP endpoint is stateless: POST JSON-RPC messages to it.');
    app.get('/mcp', { schema: { hide: true } }, notAllowed);
    app.delete('/mcp', { schema: { hide: true } }, notAllowed);
  };
