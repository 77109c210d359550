import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError, invalid } from '../../kernel/errors.ts';
import { authOf } from '../plugins/auth.ts';
import { fieldProblems, validationFailed } from '../plugins/errors.ts';
import { sendPage } from '../pagination.ts';
import { MindParams, PageQuery, SnapshotParams, SnapshotStatus, StartedAssessment, errorResponses } from '../schemas.ts';
import type { HttpSettings, Services } from '../services.ts';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const SnapshotFields = z.object({
  artifactId: z.preprocess(emptyToUndefined, z.uuid().optional()),
  digitalTwinId: z.preprocess(emptyToUndefined, z.uuid().optional()),
  speaker: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
});

interface UploadedFile {
  bytes: Buffer;
  fileName?: string;
  contentType?: string;
}

/** Reads the multipart form (or, leniently, a JSON body) into fields and at most one file. */
async function readForm(req: FastifyRequest): Promise<{ fields: Record<string, unknown>; file: UploadedFile | null }> {
  if (!req.isMultipart()) {
    const body = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) return { fields: body as Record<string, unknown>, file: null };
    throw invalid('multipart_required', 'Send multipart/form-data with a "file" or an "artifactId" field.');
  }
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | null = null;
  try {
    await readParts(req, fields, (f) => {
      if (file) throw invalid('too_many_files', 'Send one file per snapshot.');
      file = f;
    });
  } catch (err) {
    const status = (err as { statusCode?: unknown }).statusCode;
    if (err instanceof DomainError || (typeof status === 'number' && status < 500)) throw err;
    throw invalid('invalid_multipart', `The multipart body is malformed: ${(err as Error).message}`);
  }
  return { fields, file };
}

async function readParts(req: FastifyRequest, fields: Record<string, unknown>, onFile: (f: UploadedFile) => void) {
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'file') {
        throw invalid('unexpected_file_field', `Unexpected file field "${part.fieldname}"; the transcript goes in "file".`);
      }
      onFile({ bytes, fileName: part.filename || undefined, contentType: part.mimetype || undefined });
    } else {
      fields[part.fieldname] = part.value;
    }
  }
}

/** The creation route in a scope of its own: only it pays for the multipart plugin's hooks. */
const snapshotCreation =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['snapshots'];
    await app.register(fastifyMultipart, {
      limits: { fileSize: cfg.maxDirectFileBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      throwFileSizeLimit: true,
    });
    app.post(
      '/minds/:mindId/snapshots',
      {
        schema: {
          tags,
          summary: 'Create a memory bank snapshot (mind assessment)',
          description:
            'multipart/form-data with either `file` (a VTT, DOCX or PDF transcript, at most 4 MB) or `artifactId` (from the signed-URL flow), ' +
            'plus optional `digitalTwinId` and `speaker` (the person\'s label in the transcript). Processing is asynchronous: poll the status.',
          consumes: ['multipart/form-data'],
          params: MindParams,
          response: { 200: StartedAssessment, ...errorResponses(400, 401, 404, 409, 413, 415) },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { fields, file } = await readForm(req);
        const parsed = SnapshotFields.safeParse(fields);
        if (!parsed.success) throw validationFailed(fieldProblems(parsed.error.issues));
        const { artifactId, digitalTwinId, speaker } = parsed.data;
        if (!file && !artifactId) throw invalid('file_or_artifact_required', 'Send either a "file" or an "artifactId".');
        if (file && artifactId) throw invalid('file_and_artifact_given', 'Send either a "file" or an "artifactId", not both.');
        const opts = { digitalTwinId, speaker };
        return file
          ? s.snapshots.createFromFile(auth, req.params.mindId, file, opts)
          : s.snapshots.createFromArtifact(auth, req.params.mindId, artifactId as string, opts);
      },
    );
  };

export const snapshotRoutes =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['snapshots'];
    await app.register(snapshotCreation(s, cfg));

    app.get(
      '/minds/:mindId/snapshots',
      {
        schema: { tags, summary: "List a mind's snapshots, newest first", params: MindParams, querystring: PageQuery, response: { 200: z.array(SnapshotStatus), ...errorResponses(400, 401, 404) } },
      },
      async (req, reply) => {
        const page = await s.snapshots.list(authOf(req), req.params.mindId, req.query.limit, req.query.cursor);
        return sendPage(reply, cfg.publicUrl, req.query.limit, page);
      },
    );

    for (const url of ['/minds/:mindId/snapshots/:snapshotId/status', '/minds/:mindId/snapshots/:snapshotId']) {
      app.get(
        url,
        { schema: { tags, summary: 'Get a snapshot status', params: SnapshotParams, response: { 200: SnapshotStatus, ...errorResponses(400, 401, 404) } } },
        (req) => s.snapshots.status(authOf(req), req.params.mindId, req.params.snapshotId),
      );
    }
  };
