import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, invalid } from '../../kernel/errors.ts';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { MindParams, PageQuery, SnapshotParams, SnapshotStatus, StartedAssessment, errorResponses } from '../schemas.ts';
import type { HttpSettings, Services } from '../services.ts';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

interface UploadedFile {
  bytes: Buffer;
  fileName?: string;
  contentType?: string;
}

const isUploadedFile = (v: unknown): v is UploadedFile => typeof v === 'object' && v !== null && Buffer.isBuffer((v as UploadedFile).bytes);

/**
 * The creation form (multipart/form-data; a JSON object with `artifactId` is accepted too). The
 * multipart plugin attaches each field to the body (`attachFieldsToBody: 'keyValues'`) and the
 * file part as an `UploadedFile`, so zod validates the whole form and it is in the OpenAPI document.
 */
const SnapshotForm = z.object({
  file: z
    .custom<UploadedFile>(isUploadedFile, { message: 'Send the transcript as a file part named "file".' })
    .optional()
    .meta({ type: 'string', format: 'binary', description: 'A VTT, DOCX or PDF transcript, at most 4 MB.' }),
  artifactId: z.preprocess(emptyToUndefined, z.uuid().optional()).meta({ description: 'An artifact uploaded through the signed-URL flow.' }),
  digitalTwinId: z.preprocess(emptyToUndefined, z.uuid().optional()),
  speaker: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()).meta({ description: "The person's label in the transcript." }),
});

/** The creation route in a scope of its own: only it pays for the multipart plugin's hooks. */
const snapshotCreation =
  (s: Services, cfg: HttpSettings): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['snapshots'];
    await app.register(fastifyMultipart, {
      limits: { fileSize: cfg.maxDirectFileBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      throwFileSizeLimit: true,
      attachFieldsToBody: 'keyValues',
      async onFile(part) {
        if (part.fieldname !== 'file') {
          throw invalid('unexpected_file_field', `Unexpected file field "${part.fieldname}"; the transcript goes in "file".`);
        }
        const bytes = await part.toBuffer();
        (part as unknown as { value: UploadedFile }).value = { bytes, fileName: part.filename || undefined, contentType: part.mimetype || undefined };
      },
    });
    // A body the multipart parser cannot read fails before the handler starts: a 400, not a 500.
    const handled = new WeakSet<object>();
    app.setErrorHandler((err: Error, req) => {
      const status = (err as { statusCode?: unknown }).statusCode;
      if (handled.has(req) || err instanceof DomainError || typeof status === 'number' || 'validation' in err) throw err;
      throw invalid('invalid_multipart', `The multipart body is malformed: ${err.message}`);
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
          body: SnapshotForm,
          response: { 200: StartedAssessment, ...errorResponses(400, 401, 404, 409, 413, 415) },
        },
      },
      async (req) => {
        handled.add(req);
        const auth = authOf(req);
        const { file, artifactId, digitalTwinId, speaker } = req.body;
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
