/**
 * The hosted MCP server's upload tools, with its names and argument schemas:
 * get_signed_upload_url → upload_file_to_signed_url → create_snapshot (then get_snapshot_status).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { run, type McpTransportKind } from './results.ts';

export interface FileUpload {
  signedUrl: string;
  /** An absolute path on the machine running the MCP server (stdio only). */
  filePath: string;
  contentType?: string;
}

/** What the upload tools need of a backend. */
export interface SignedUploadBackend {
  /** `GET /minds/{mindId}/signed-url`'s answer. */
  signedUploadUrl(mindId: string, opts: { contentType?: string; fileName?: string }): Promise<unknown>;
  /** Reads the local file and PUTs it to the signed URL; only where the server runs beside the caller (stdio). */
  uploadFile?(upload: FileUpload): Promise<{ uploadedBytes: number; fileName: string }>;
  /** `POST /minds/{mindId}/snapshots` with an uploaded artifact: its answer. */
  createSnapshot(mindId: string, digitalTwinId: string, artifactId: string): Promise<unknown>;
}

/** Over HTTP the server runs on the service, not beside the caller: it must not read its own disk for them. */
export const NO_FILES_OVER_HTTP =
  'upload_file_to_signed_url reads a file on the machine running the MCP server, and this server (/mcp over HTTP) runs on the ' +
  "service, not on your computer, so it cannot read your files. Send the transcript's content with upload_transcript instead " +
  '(text for WebVTT, contentBase64 for DOCX or PDF), or PUT the file to the signed URL yourself, then call create_snapshot.';

const STEPS = 'Steps: create_mind → get_signed_upload_url → upload_file_to_signed_url → create_snapshot → get_snapshot_status until "completed" → simulate.';

export const UPLOAD_TOOL_DESCRIPTIONS = {
  get_signed_upload_url:
    `A one-time URL to upload a transcript (WebVTT, DOCX or PDF) to a mind. Returns {signedUrl, fileName, artifactId, …}; keep artifactId for create_snapshot. ${STEPS}`,
  upload_file_to_signed_url: {
    stdio:
      'Upload a local transcript file (.vtt, .docx or .pdf, given by its absolute path) to a signed URL from get_signed_upload_url. ' +
      `Returns {success, message, uploadedBytes, fileName}. ${STEPS}`,
    http: `Not available over HTTP: ${NO_FILES_OVER_HTTP}`,
  },
  create_snapshot:
    'Start processing an uploaded transcript into the mind (asynchronous). Returns {message, mindAssessmentId, artifactId}: pass ' +
    `mindAssessmentId as snapshotId to get_snapshot_status until it is "completed". ${STEPS}`,
} as const;

const id = (what: string) => z.string().uuid().describe(what);

/** Registers the upload tools on `server`, one call per tool. */
export function registerUploadTools(server: McpServer, backend: SignedUploadBackend, kind: McpTransportKind): void {
  server.registerTool(
    'get_signed_upload_url',
    {
      description: UPLOAD_TOOL_DESCRIPTIONS.get_signed_upload_url,
      inputSchema: {
        mindId: id('The mind (mind.id from create_mind)'),
        contentType: z.string().max(200).optional().describe("The file's MIME type, e.g. text/vtt (optional; the type is decided from the bytes)"),
        fileName: z.string().max(500).optional().describe('The file name, to keep its extension (optional)'),
      },
    },
    ({ mindId, contentType, fileName }) => run(() => backend.signedUploadUrl(mindId, { contentType, fileName })),
  );
  server.registerTool(
    'upload_file_to_signed_url',
    {
      description: UPLOAD_TOOL_DESCRIPTIONS.upload_file_to_signed_url[kind],
      inputSchema: {
        signedUrl: z.string().min(1).describe('signedUrl from get_signed_upload_url'),
        filePath: z.string().min(1).describe('Absolute path of the local file to upload'),
        contentType: z
          .string()
          .max(200)
          .optional()
          .describe("MIME type: text/vtt, application/pdf or application/vnd.openxmlformats-officedocument.wordprocessingml.document (default: from the file's extension)"),
      },
    },
    (args) =>
      run(async () => {
        if (kind === 'http' || !backend.uploadFile) throw new Error(NO_FILES_OVER_HTTP);
        const { uploadedBytes, fileName } = await backend.uploadFile(args);
        return { success: true, message: 'File uploaded successfully', uploadedBytes, fileName };
      }),
  );
  server.registerTool(
    'create_snapshot',
    {
      description: UPLOAD_TOOL_DESCRIPTIONS.create_snapshot,
      inputSchema: {
        mindId: id('The mind (mind.id from create_mind)'),
        digitalTwinId: id('The digital twin (digitalTwin.id from create_mind)'),
        artifactId: id('artifactId from get_signed_upload_url'),
      },
    },
    ({ mindId, digitalTwinId, artifactId }) => run(() => backend.createSnapshot(mindId, digitalTwinId, artifactId)),
  );
}
