import { WaitTimeoutError } from './errors.ts';
import { Paginated } from './pagination.ts';
import { API_PREFIX, Transport, sleep, type ClientOptions } from './transport.ts';
import { Audit } from './audit.ts';
import { Corrections, ReviewLinks } from './corrections.ts';
import { Panels } from './panels.ts';
import { downloadExport, type MindExportDownload } from './exports.ts';
import { Simulations, simulationEvents, type SimulationEvent } from './simulations.ts';
import type {
  AccountPrivacy,
  AccountPrivacyUpdate,
  ConsentInput,
  RedactionMode,
  ConsentWithdrawal,
  CreatedMind,
  CreateMindRequest,
  DeletedTag,
  DeletedSnapshot,
  DigitalTwinAnswer,
  DigitalTwinList,
  LinkedSnapshot,
  Mind,
  MindProfile,
  MindSearchResult,
  Model,
  PutMindRequest,
  Tag,
  UpdatedMind,
  QueuedSimulation,
  Psychometrics,
  SignedUrl,
  SimulateRequest,
  Simulation,
  SnapshotDetails,
  SnapshotList,
  SnapshotStatus,
  StartedAssessment,
  Topics,
  UnlinkedSnapshot,
  UploadResult,
  Usage,
  UsageQuery,
  WebhookEvent,
} from './types.ts';
import { uploadBody, type ProgressListener, type UploadSource } from './upload-body.ts';

export interface ListOptions {
  /** Page size (1–200; the service's default is 50). */
  limit?: number;
  cursor?: string;
  signal?: AbortSignal;
}

export interface MindListOptions extends ListOptions {
  /** Only minds carrying any of these tag names (case-insensitive). */
  tags?: string[];
}

export interface UploadOptions {
  fileName?: string;
  contentType?: string;
  /** Byte size of a stream source, sent as Content-Length and used for progress. */
  size?: number;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

export type SnapshotSource =
  | { artifactId: string; file?: never }
  | { file: Blob; fileName?: string; artifactId?: never };

export type CreateSnapshotOptions = SnapshotSource & {
  /** The twin to link the snapshot to (default: the mind's default twin). */
  digitalTwinId?: string;
  speaker?: string;
  /** When the conversation happened, YYYY-MM-DD (default: the upload day). */
  mindsetDate?: string;
  signal?: AbortSignal;
};

export interface SnapshotDetailsOptions {
  /** Include the parsed transcript turns (default true). */
  includeTranscript?: boolean;
  /** Include the psychometrics (default true). */
  includePsychometrics?: boolean;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Give up after this long (WaitTimeoutError). Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** First poll interval; it grows by half each poll up to `maxIntervalMs`. Default 250 ms. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Called with every status read, e.g. for a live status line. */
  onStatus?: (status: SnapshotStatus) => void;
}

const enc = encodeURIComponent;

/** PUT /minds/{mindId}: a withdrawal of consent (sent alone) answers what was erased, any other change the mind. */
export interface PutMind {
  (mindId: string, changes: { consent: { status: 'withdrawn' } }, signal?: AbortSignal): Promise<ConsentWithdrawal>;
  (mindId: string, changes: PutMindRequest, signal?: AbortSignal): Promise<UpdatedMind>;
}

/** The Mind Simulation Service public API v1. */
export class MindsimClient {
  readonly transport: Transport;

  constructor(opts: ClientOptions) {
    this.transport = new Transport(opts);
  }

  readonly minds = {
    /** A mind (and its `Default` twin) from a name, or from a name with email, imageUrl, socialMedia, scope and tag names. */
    create: (mind: string | CreateMindRequest, signal?: AbortSignal) =>
      this.transport.json<CreatedMind>({ method: 'POST', path: `${API_PREFIX}/minds`, json: typeof mind === 'string' ? { name: mind } : mind, signal }),
    /** Newest first, every page: `for await (const mind of client.minds.list({ tags: ['Marketing'] }))`. */
    list: (opts: MindListOptions = {}) =>
      new Paginated<Mind, { minds: Mind[] }>(
        this.transport,
        `${API_PREFIX}/minds`,
        { limit: opts.limit, cursor: opts.cursor, tags: opts.tags?.length ? opts.tags.join(',') : undefined },
        opts.signal,
        (body) => body.minds,
      ),
    /** Minds whose name, email or a tag name contains the query (case-insensitive): `{minds, count}`. */
    search: (query: string, opts: { limit?: number; signal?: AbortSignal } = {}) =>
      this.transport.json<MindSearchResult>({ method: 'GET', path: `${API_PREFIX}/minds/search`, query: { query, limit: opts.limit }, signal: opts.signal }),
    get: (mindId: string, signal?: AbortSignal) =>
      this.transport.json<Mind>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}`, signal }),
    /** Renames (PATCH): answers the mind. */
    update: (mindId: string, changes: { name: string }, signal?: AbortSignal) =>
      this.transport.json<Mind>({ method: 'PATCH', path: `${API_PREFIX}/minds/${enc(mindId)}`, json: changes, signal }),
    /**
     * Changes the fields given (PUT; null clears email, imageUrl, socialMedia): `{success: true, mind}`.
     * `{consent: {status: "withdrawn"}}` alone erases the mind and answers ConsentWithdrawal.
     */
    put: ((mindId: string, changes: PutMindRequest, signal?: AbortSignal) =>
      this.transport.json<UpdatedMind | ConsentWithdrawal>({ method: 'PUT', path: `${API_PREFIX}/minds/${enc(mindId)}`, json: changes, signal })) as PutMind,
    /** The same as `put`, under the name of the hosted SDK's method. */
    replace: ((mindId: string, changes: PutMindRequest, signal?: AbortSignal) => this.minds.put(mindId, changes, signal)) as PutMind,
    /** Records the person's consent (granted with subject, obtainedAt, method, scope; or unknown to clear it): `{success, mind}`. */
    setConsent: (mindId: string, consent: Exclude<ConsentInput, { status: 'withdrawn' }>, signal?: AbortSignal) => this.minds.put(mindId, { consent }, signal),
    /**
     * The person withdrew their consent: every use stops and the mind, its transcripts, memories,
     * simulations and panel answers are erased; afterwards the mind answers 410 CONSENT_WITHDRAWN.
     */
    withdrawConsent: (mindId: string, signal?: AbortSignal) => this.minds.put(mindId, { consent: { status: 'withdrawn' } }, signal),
    /**
     * How the person's data is redacted: off, outbound (e-mails, phones, cards, IBANs, addresses, personal
     * URLs, dates of birth and third parties' names never reach the LLM provider) or stored (not stored
     * either); applies to snapshots processed afterwards: `{success, mind}`.
     */
    setRedaction: (mindId: string, redaction: RedactionMode, signal?: AbortSignal) => this.minds.put(mindId, { redaction }, signal),
    /** The mind carries exactly these tags afterwards (missing ones are made; [] clears): `{mind}`. */
    setTags: (mindId: string, tagNames: string[], signal?: AbortSignal) =>
      this.transport.json<{ mind: Mind }>({ method: 'PUT', path: `${API_PREFIX}/minds/${enc(mindId)}/tags`, json: { tagNames }, signal }),
    /** The persona profile built from the mind's completed snapshots (409 before one completes). */
    profile: (mindId: string, signal?: AbortSignal) =>
      this.transport.json<MindProfile>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/profile`, signal }),
    delete: async (mindId: string, signal?: AbortSignal): Promise<void> => {
      const res = await this.transport.send({ method: 'DELETE', path: `${API_PREFIX}/minds/${enc(mindId)}`, signal });
      await res.body?.cancel();
    },
    /** Linguistic markers (and LLM estimates, where made) over the mind's linked completed snapshots (409 before one completes). */
    psychometrics: (mindId: string, signal?: AbortSignal) =>
      this.transport.json<Psychometrics>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/psychometrics`, signal }),
    /** The topics of the mind's profile, with their evidence (409 before a snapshot completes). */
    topics: (mindId: string, signal?: AbortSignal) => this.transport.json<Topics>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/topics`, signal }),
    /** Everything stored about the mind's person as one zip archive (README.json describes each file): `{fileName, body, blob(), bytes()}`. */
    export: (mindId: string, signal?: AbortSignal): Promise<MindExportDownload> => downloadExport(this.transport, mindId, signal),
    /** What the person would really say: `create`, `fromSimulation`, `list`, `get`, `delete`. */
    corrections: new Corrections(() => this.transport),
    /** Links for the person behind a mind to review and correct its answers: `create`, `list`, `revoke`. */
    reviewLinks: new ReviewLinks(() => this.transport),
  };

  /** A mind's digital twins: the default one, and those added to link snapshots to and simulate apart. */
  readonly twins = {
    list: (mindId: string, signal?: AbortSignal) =>
      this.transport.json<DigitalTwinList>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/digital-twins`, signal }),
    create: (mindId: string, name: string, signal?: AbortSignal) =>
      this.transport.json<DigitalTwinAnswer>({ method: 'POST', path: `${API_PREFIX}/minds/${enc(mindId)}/digital-twins`, json: { name }, signal }),
    rename: (mindId: string, twinId: string, name: string, signal?: AbortSignal) =>
      this.transport.json<DigitalTwinAnswer>({ method: 'PATCH', path: `${API_PREFIX}/minds/${enc(mindId)}/digital-twins/${enc(twinId)}`, json: { name }, signal }),
  };

  /** The account's tags (`{id, name}`, unique per account whatever their case). */
  readonly tags = {
    /** `{tags}`, by name. */
    list: (signal?: AbortSignal) => this.transport.json<{ tags: Tag[] }>({ method: 'GET', path: `${API_PREFIX}/tags`, signal }),
    /** `{tag}`; 409 TAG_NAME_TAKEN when another tag has the name. */
    rename: (tagId: string, name: string, signal?: AbortSignal) =>
      this.transport.json<{ tag: Tag }>({ method: 'PUT', path: `${API_PREFIX}/tags/${enc(tagId)}`, json: { name }, signal }),
    /** Removes the tag from every mind: `{message, tagId}`. */
    delete: (tagId: string, signal?: AbortSignal) =>
      this.transport.json<DeletedTag>({ method: 'DELETE', path: `${API_PREFIX}/tags/${enc(tagId)}`, signal }),
  };

  readonly uploads = {
    /** A one-time upload URL for the mind. */
    signedUrl: (mindId: string, query: { fileName?: string; contentType?: string } = {}, signal?: AbortSignal) =>
      this.transport.json<SignedUrl>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/signed-url`, query, signal }),
    /**
     * Uploads a transcript through a signed URL (GET signed-url, then PUT the bytes) and answers the
     * artifact to create a snapshot from. Blobs and bytes are retried like any PUT; streams are not (they cannot be replayed).
     */
    upload: async (mindId: string, source: UploadSource, opts: UploadOptions = {}): Promise<UploadResult & { fileName: string }> => {
      const fileName = opts.fileName ?? (typeof File !== 'undefined' && source instanceof File ? source.name : undefined);
      const contentType = opts.contentType ?? (source instanceof Blob && source.type ? source.type : undefined);
      const target = await this.uploads.signedUrl(mindId, { fileName, contentType }, opts.signal);
      const result = await this.uploads.put(target.signedUrl, source, { ...opts, contentType });
      return { ...result, fileName: target.fileName };
    },
    /** PUTs the bytes to a signed URL you already have (without the API key) and answers the upload's result. */
    put: async (signedUrl: string, source: UploadSource, opts: Omit<UploadOptions, 'fileName'> = {}): Promise<UploadResult> => {
      const upload = uploadBody(source, opts.size, opts.onProgress);
      const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/octet-stream' };
      if (upload.size !== undefined) headers['content-length'] = String(upload.size);
      const result = await this.transport.json<UploadResult>({
        method: 'PUT',
        path: signedUrl,
        body: upload.body,
        headers,
        auth: false,
        replayable: upload.replayable,
        signal: opts.signal,
      });
      upload.finish();
      return result;
    },
  };

  readonly snapshots = {
    /** Starts a snapshot from an uploaded artifact or a file (multipart, at most 4 MB). Never retried. */
    create: (mindId: string, opts: CreateSnapshotOptions) => {
      const form = new FormData();
      if (opts.artifactId) form.append('artifactId', opts.artifactId);
      if (opts.file) form.append('file', opts.file, opts.fileName ?? (opts.file instanceof File ? opts.file.name : 'transcript'));
      if (opts.digitalTwinId) form.append('digitalTwinId', opts.digitalTwinId);
      if (opts.speaker) form.append('speaker', opts.speaker);
      if (opts.mindsetDate) form.append('mindsetDate', opts.mindsetDate);
      return this.transport.json<StartedAssessment>({ method: 'POST', path: `${API_PREFIX}/minds/${enc(mindId)}/snapshots`, body: form, signal: opts.signal });
    },
    status: (mindId: string, snapshotId: string, signal?: AbortSignal) =>
      this.transport.json<SnapshotStatus>({ method: 'GET', path: `${API_PREFIX}/minds/${enc(mindId)}/snapshots/${enc(snapshotId)}/status`, signal }),
    /** Newest first, every page (`.all()`, `for await`); `.first()` is the first page's `{snapshots, count}`. */
    list: (mindId: string, opts: ListOptions = {}) =>
      new Paginated<SnapshotStatus, SnapshotList>(
        this.transport,
        `${API_PREFIX}/minds/${enc(mindId)}/snapshots`,
        { limit: opts.limit, cursor: opts.cursor },
        opts.signal,
        (body) => body.snapshots,
      ),
    /** The snapshot's details: counts, and (by default) its transcript turns and psychometrics. */
    get: (mindId: string, snapshotId: string, opts: SnapshotDetailsOptions = {}) =>
      this.transport.json<SnapshotDetails>({
        method: 'GET',
        path: this.snapshotPath(mindId, snapshotId),
        query: { includeTranscript: opts.includeTranscript?.toString(), includePsychometrics: opts.includePsychometrics?.toString() },
        signal: opts.signal,
      }),
    /** Deletes the snapshot with what was learned from it (the mind answers from its other snapshots). */
    delete: (mindId: string, snapshotId: string, signal?: AbortSignal) =>
      this.transport.json<DeletedSnapshot>({ method: 'DELETE', path: this.snapshotPath(mindId, snapshotId), signal }),
    link: (mindId: string, snapshotId: string, digitalTwinId: string, signal?: AbortSignal) =>
      this.transport.json<LinkedSnapshot>({ method: 'POST', path: `${this.snapshotPath(mindId, snapshotId)}/link`, json: { digitalTwinId }, signal }),
    /** Detaches the snapshot from its twin: no simulation uses it until it is linked again. */
    unlink: (mindId: string, snapshotId: string, signal?: AbortSignal) =>
      this.transport.json<UnlinkedSnapshot>({ method: 'POST', path: `${this.snapshotPath(mindId, snapshotId)}/unlink`, signal }),
    /** Psychometrics of a completed snapshot (409 before). */
    psychometrics: (mindId: string, snapshotId: string, signal?: AbortSignal) =>
      this.transport.json<Psychometrics>({ method: 'GET', path: `${this.snapshotPath(mindId, snapshotId)}/psychometrics`, signal }),
    /** Topic analysis of a completed snapshot (409 before). */
    topics: (mindId: string, snapshotId: string, signal?: AbortSignal) =>
      this.transport.json<Topics>({ method: 'GET', path: `${this.snapshotPath(mindId, snapshotId)}/topics`, signal }),
    /** Polls with growing intervals until the snapshot is `completed` or `failed`, and answers that record. */
    wait: async (mindId: string, snapshotId: string, opts: WaitOptions = {}): Promise<SnapshotStatus> => {
      const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
      let interval = opts.intervalMs ?? 250;
      for (;;) {
        const status = await this.snapshots.status(mindId, snapshotId, opts.signal);
        opts.onStatus?.(status);
        if (status.status === 'completed' || status.status === 'failed') return status;
        const left = deadline - Date.now();
        if (left <= 0) throw new WaitTimeoutError(`Snapshot ${snapshotId} is still ${status.status}.`, status.status);
        await sleep(Math.min(interval, left), opts.signal);
        interval = Math.min(interval * 1.5, opts.maxIntervalMs ?? 5_000);
      }
    },
  };

  private snapshotPath(mindId: string, snapshotId: string): string {
    return `${API_PREFIX}/minds/${enc(mindId)}/snapshots/${enc(snapshotId)}`;
  }

  /** The account's own settings. */
  readonly account = {
    /** `{requireConsent, retentionDays}`. */
    privacy: (signal?: AbortSignal) => this.transport.json<AccountPrivacy>({ method: 'GET', path: `${API_PREFIX}/account/privacy`, signal }),
    /** Changes the settings given (retentionDays: 1–36500 or null to keep everything); answers them all. */
    setPrivacy: (changes: AccountPrivacyUpdate, signal?: AbortSignal) =>
      this.transport.json<AccountPrivacy>({ method: 'PUT', path: `${API_PREFIX}/account/privacy`, json: changes, signal }),
  };

  readonly models = {
    list: (signal?: AbortSignal) => this.transport.json<Model[]>({ method: 'GET', path: `${API_PREFIX}/models`, signal }),
  };

  readonly usage = {
    /** The calling API key's usage over UTC days `from`–`to` (YYYY-MM-DD, both included; default the last 30 days). */
    get: (query: UsageQuery = {}, signal?: AbortSignal) =>
      this.transport.json<Usage>({ method: 'GET', path: `${API_PREFIX}/usage`, query, signal }),
  };

  readonly webhookEvents = {
    list: (opts: ListOptions = {}) =>
      new Paginated<WebhookEvent>(this.transport, `${API_PREFIX}/webhook-events`, { limit: opts.limit, cursor: opts.cursor }, opts.signal),
  };

  /** The stored simulations (conversations): list, get (with messages), delete. */
  get simulations(): Simulations {
    return (this.simulationsResource ??= new Simulations(this.transport));
  }

  private simulationsResource: Simulations | undefined;

  /** Panels: many minds, many typed questions; `create`, `wait`, `get` (results), `answers`/`answersCsv`, `cancel`, `delete`. */
  get panels(): Panels {
    return (this.panelsResource ??= new Panels(this.transport));
  }

  private panelsResource: Panels | undefined;

  /** The account's access log: `audit.list({mindId, from, to})`. */
  get audit(): Audit {
    return (this.auditResource ??= new Audit(this.transport));
  }

  private auditResource: Audit | undefined;

  /**
   * How the person behind the mind would think, feel, say and act. Needs a completed snapshot (else
   * 409). `conversationId` continues a conversation (the answer's `conversationId`); with
   * `runInBackground: true` it answers at once with the queued simulation (`simulations.get` follows it).
   */
  simulate(request: Omit<SimulateRequest, 'stream' | 'runInBackground'> & { runInBackground: true }, signal?: AbortSignal): Promise<QueuedSimulation>;
  simulate(request: Omit<SimulateRequest, 'stream' | 'runInBackground'> & { runInBackground?: false }, signal?: AbortSignal): Promise<Simulation>;
  simulate(request: Omit<SimulateRequest, 'stream'>, signal?: AbortSignal): Promise<Simulation | QueuedSimulation> {
    return this.transport.json<Simulation | QueuedSimulation>({ method: 'POST', path: `${API_PREFIX}/simulate`, json: request, signal });
  }

  /** The same simulation streamed (server-sent events): `for await (const e of client.simulateStream({…}))`; the last event is `result` or `error`. */
  simulateStream(request: Omit<SimulateRequest, 'stream' | 'runInBackground'>, signal?: AbortSignal): AsyncGenerator<SimulationEvent> {
    return simulationEvents(this.transport, request, signal);
  }
}
