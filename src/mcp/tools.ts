/**
 * The MCP tools of the service, defined once (names, descriptions, zod input schemas) and served
 * over two transports: Streamable HTTP at `/mcp` (backed by the domain services) and stdio by
 * `mindsim mcp` (backed by the SDK against MINDSIM_BASE_URL).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { isFinal } from '../domain/snapshot.ts';
import { run, type McpTransportKind } from './results.ts';
import { registerUploadTools, type SignedUploadBackend } from './upload-tools.ts';
import { registerMindTools, type MindReadBackend } from './mind-tools.ts';
import { registerRedactionTools, type RedactionBackend } from './redaction-tools.ts';
import { registerSimulationTools, type SimulationBackend } from './simulation-tools.ts';
import { registerPanelTools, type PanelBackend } from './panel-tools.ts';
import { registerCorrectionTools, type CorrectionBackend } from './correction-tools.ts';

export type { McpTransportKind } from './results.ts';

/** A transcript handed to `upload_transcript`: a local path (stdio) or the content itself (HTTP). */
export type TranscriptInput =
  | { kind: 'path'; path: string }
  | { kind: 'content'; fileName: string; bytes: Buffer };

export interface UploadRequest {
  mindId: string;
  transcript: TranscriptInput;
  digitalTwinId?: string;
  speaker?: string;
}

/** What the tools need; one implementation per transport. */
export interface MindsimBackend extends SignedUploadBackend, MindReadBackend, SimulationBackend, PanelBackend, RedactionBackend, CorrectionBackend {
  createMind(name: string): Promise<unknown>;
  listMinds(limit: number): Promise<unknown[]>;
  uploadTranscript(req: UploadRequest): Promise<unknown>;
  snapshotStatus(mindId: string, snapshotId: string): Promise<{ status: string }>;
  /** Present only when the service has `GET /minds/{mindId}/profile`. */
  getProfile?(mindId: string): Promise<unknown>;
}

const id = (what: string) => z.string().uuid().describe(what);
const MINDS = 'Minds are the people you can simulate.';
const FLOW =
  'Workflow: create_mind (or list_minds) → upload_transcript → get_snapshot_status until "completed" → simulate.';

export const TOOL_DESCRIPTIONS = {
  create_mind: `Create a mind for a real person, named after them. Call this first when the person is new. ${MINDS} Returns {mind:{id,…}, digitalTwin:{id,…}}; keep mind.id for the other tools. ${FLOW}`,
  list_minds: `List the minds of this account, newest first, to find an existing mind's id before creating a duplicate. ${MINDS}`,
  upload_transcript:
    'Add a transcript of the person speaking (an interview, call or talk) to a mind. Formats: WebVTT (Teams, Zoom), DOCX or PDF. ' +
    'Processing is asynchronous: this returns {mindAssessmentId, artifactId}; pass mindAssessmentId as snapshotId to get_snapshot_status ' +
    'and wait for "completed" before calling simulate. If the transcript has several speakers, give `speaker` (the person\'s label) ' +
    'unless the mind is named exactly like them.',
  get_snapshot_status:
    'Status of a transcript being processed: pending, processing, completed or failed (with the reason in `error`). ' +
    'Call it after upload_transcript or create_snapshot until the status is completed or failed; `waitSeconds` (up to 60) waits on the server side ' +
    'so you need fewer calls. Only a completed snapshot can be simulated.',
  get_profile:
    "The persona profile of a mind, built from its completed snapshots: the topics the person talks about with their stances " +
    'and feelings (with quotes), stated behaviours ("I always …"), speaking style and the questions they answered. Use it to ' +
    'summarise the person or to pick good scenarios for simulate; needs a completed snapshot (else snapshot_not_ready).',
} as const;

const transcriptShape = {
  http: {
    fileName: z.string().min(1).max(200).describe('File name with its extension, e.g. interview.vtt'),
    text: z.string().optional().describe('The transcript text (WebVTT). Give this or contentBase64.'),
    contentBase64: z.string().optional().describe('A DOCX or PDF file (or any transcript) as base64. Give this or text.'),
  },
  stdio: {
    path: z.string().min(1).describe('Path of a local transcript file (.vtt, .docx or .pdf)'),
  },
};

const common = {
  mindId: id('The mind, from create_mind or list_minds'),
  digitalTwinId: id('Optional: the digital twin (digitalTwin.id from create_mind)').optional(),
  speaker: z.string().min(1).max(200).optional().describe("Optional: the person's speaker label in the transcript"),
};

function transcriptOf(kind: McpTransportKind, args: Record<string, unknown>): TranscriptInput {
  if (kind === 'stdio') return { kind: 'path', path: String(args.path) };
  const { fileName, text, contentBase64 } = args as { fileName: string; text?: string; contentBase64?: string };
  if ((text === undefined) === (contentBase64 === undefined)) throw new Error('Give either text or contentBase64.');
  return { kind: 'content', fileName, bytes: text !== undefined ? Buffer.from(text, 'utf8') : Buffer.from(contentBase64 ?? '', 'base64') };
}

async function waitForStatus(backend: MindsimBackend, mindId: string, snapshotId: string, waitSeconds: number) {
  const deadline = Date.now() + waitSeconds * 1000;
  let interval = 250;
  for (;;) {
    const status = await backend.snapshotStatus(mindId, snapshotId);
    if (isFinal(status.status) || Date.now() >= deadline) return status;
    await new Promise((r) => setTimeout(r, Math.min(interval, deadline - Date.now())));
    interval = Math.min(interval * 1.5, 2000);
  }
}

/** A new MCP server with every tool the backend supports. */
export function createMcpServer(backend: MindsimBackend, kind: McpTransportKind, version = '1.0.0'): McpServer {
  const server = new McpServer({ name: 'mindsim', version });
  server.registerTool(
    'create_mind',
    { description: TOOL_DESCRIPTIONS.create_mind, inputSchema: { name: z.string().trim().min(1).max(200).describe("The person's full name") } },
    ({ name }) => run(() => backend.createMind(name)),
  );
  server.registerTool(
    'list_minds',
    { description: TOOL_DESCRIPTIONS.list_minds, inputSchema: { limit: z.number().int().min(1).max(100).optional().describe('At most this many (default 50)') } },
    ({ limit }) => run(() => backend.listMinds(limit ?? 50)),
  );
  server.registerTool(
    'upload_transcript',
    { description: TOOL_DESCRIPTIONS.upload_transcript, inputSchema: { ...common, ...transcriptShape[kind] } },
    (args: Record<string, unknown>) =>
      run(async () => {
        const { mindId, digitalTwinId, speaker } = args as { mindId: string; digitalTwinId?: string; speaker?: string };
        const transcript = transcriptOf(kind, args);
        const started = await backend.uploadTranscript({ mindId, transcript, digitalTwinId, speaker });
        return { ...(started as object), next: 'Call get_snapshot_status with snapshotId = mindAssessmentId until completed.' };
      }),
  );
  server.registerTool(
    'get_snapshot_status',
    {
      description: TOOL_DESCRIPTIONS.get_snapshot_status,
      inputSchema: {
        mindId: common.mindId,
        snapshotId: id('mindAssessmentId from upload_transcript or create_snapshot'),
        waitSeconds: z.number().min(0).max(60).optional().describe('Wait up to this long for completed or failed (default 0)'),
      },
    },
    ({ mindId, snapshotId, waitSeconds }) => run(() => waitForStatus(backend, mindId, snapshotId, waitSeconds ?? 0)),
  );
  registerUploadTools(server, backend, kind);
  registerSimulationTools(server, backend);
  registerCorrectionTools(server, backend, run);
  registerMindTools(server, backend, run);
  registerRedactionTools(server, backend, run);
  registerPanelTools(server, backend);
  const getProfile = backend.getProfile?.bind(backend);
  if (getProfile) {
    server.registerTool('get_profile', { description: TOOL_DESCRIPTIONS.get_profile, inputSchema: { mindId: common.mindId } }, ({ mindId }) =>
      run(() => getProfile(mindId)),
    );
  }
  return server;
}
