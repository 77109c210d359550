import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, invalid } from '../../kernel/errors.ts';
import { authOf } from '../plugins/auth.ts';
import { sendPage } from '../pagination.ts';
import { MindParams, PageQuery, SnapshotParams, SnapshotStatus, StartedAssessment, errorResponses } from '../schemas.ts';
import { Deleted, DetailsQuery, LinkBody, Linked, SnapshotDetails, SnapshotList, Unlinked, isSet } from '../schemas/snapshots.ts';
import type { HttpSettings, Services } from '../services.ts';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

interface UploadedFile {
  bytes: Buffer;
  fileName?: string;
  contentType?: string;
}

/** A conversation's date: not before 1900, not after tomorrow (UTC; the client's today may be ahead). */
const plausibleDate = (d: string) => d >= '1900-01-01' && d <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

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
  mindsetDate: z
    .preprocess(emptyToUndefined, z.iso.date().refine(plausibleDate, 'Give a date from 1900-01-01 to today, as YYYY-MM-DD.').optional())
    .meta({ description: 'When the conversation happened, YYYY-MM-DD (default: today, the upload day).' }),
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
            'plus optional `digitalTwinId` (default: the mind\'s default twin), `speaker` (the person\'s label in the transcript) and `mindsetDate` ' +
            '(when the conversation happened, YYYY-MM-DD; default: today). Processing is asynchronous: poll the status.',
          consumes: ['multipart/form-data'],
          params: MindParams,
          body: SnapshotForm,
          response: { 200: StartedAssessment, ...errorResponses(400, 401, 404, 409, 413, 415) },
        },
      },
      async (req) => {
        handled.add(req);
        const auth = authOf(req);
        const { file, artifactId, digitalTwinId, speaker, mindsetDate } = req.body;
        if (!file && !artifactId) throw invalid('file_or_artifact_required', 'Send either a "file" or an "artifactId".');
        if (file && artifactId) throw invalid('file_and_artifact_given', 'Send either a "file" or an "artifactId", not both.');
        const opts = { digitalTwinId, speaker, mindsetDate };
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
        schema: {
          tags,
          summary: "List a mind's snapshots, newest first",
          description: '`{snapshots, count}`: a page of snapshots (`limit`, `cursor`; the next page in the `Link` header) and how many the mind has in all.',
          params: MindParams,
          querystring: PageQuery,
          response: { 200: SnapshotList, ...errorResponses(400, 401, 404) },
        },
      },
      async (req, reply) => {
        const page = await s.snapshots.list(authOf(req), req.params.mindId, req.query.limit, req.query.cursor);
        return { snapshots: sendPage(reply, cfg.publicUrl, req.query.limit, page), count: page.count };
      },
    );

    app.get(
      '/minds/:mindId/snapshots/:snapshotId/status',
      { schema: { tags, summary: 'Get a snapshot status', params: SnapshotParams, response: { 200: SnapshotStatus, ...errorResponses(400, 401, 404) } } },
      (req) => s.snapshots.status(authOf(req), req.params.mindId, req.params.snapshotId),
    );

    app.get(
      '/minds/:mindId/snapshots/:snapshotId',
      {
        schema: {
          tags,
          summary: "Get a snapshot's details",
          description:
            'The status fields, plus `updatedAt`, the counts of what its analysis found, the parsed transcript turns (`includeTranscript`, default true) ' +
            'and its psychometrics (`includePsychometrics`, default true); the last three are null until the snapshot is completed.',
          params: SnapshotParams,
          querystring: DetailsQuery,
          response: { 200: SnapshotDetails, ...errorResponses(400, 401, 404) },
        },
      },
      (req) =>
        s.snapshotDetails.details(authOf(req), req.params.mindId, req.params.snapshotId, {
          includeTranscript: isSet(req.query.includeTranscript),
          includePsychometrics: isSet(req.query.includePsychometrics),
        }),
    );

    app.delete(
      '/minds/:mindId/snapshots/:snapshotId',
      {
        schema: {
          tags,
          summary: 'Delete a snapshot',
          description:
            'Removes the snapshot with its memories, profile, transcript and psychometrics (the mind answers from its other snapshots from now on), ' +
            'and its uploaded file unless another snapshot was made from the same artifact. A pending or processing snapshot stops being processed.',
          params: SnapshotParams,
          response: { 200: Deleted, ...errorResponses(400, 401, 404) },
        },
      },
      (req) => s.snapshots.delete(authOf(req), req.params.mindId, req.params.snapshotId),
    );

    app.post(
      '/minds/:mindId/snapshots/:snapshotId/link',
      {
        schema: {
          tags,
          summary: 'Link a snapshot to a digital twin of its mind',
          params: SnapshotParams,
          body: LinkBody,
          response: { 200: Linked, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        const snapshot = await s.snapshots.link(authOf(req), req.params.mindId, req.params.snapshotId, req.body.digitalTwinId);
        return { message: 'Snapshot linked successfully' as const, snapshot: [snapshot] };
      },
    );

    app.post(
      '/minds/:mindId/snapshots/:snapshotId/unlink',
      {
        schema: {
          tags,
          summary: 'Unlink a snapshot from its digital twin (no simulation uses it until it is linked again)',
          params: SnapshotParams,
          response: { 200: Unlinked, ...errorResponses(400, 401, 404) },
        },
      },
      async (req) => {
        const snapshot = await s.snapshots.link(authOf(req), req.params.mindId, req.params.snapshotId, null);
        return { message: 'Snapshot unlinked successfully' as const, snapshot: [snapshot] };
      },
    );
  };
