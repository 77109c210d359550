import type { Readable } from 'node:stream';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { ArtifactRow } from '../store/db/repos/artifacts.ts';
import type { Store } from '../store/store.ts';
import type { AuthContext } from './accounts.ts';
import { DomainError, tooLarge } from '../kernel/errors.ts';
import type { MindService } from './minds.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import { artifactBlobKey, artifactUploadKey, safeFileName, uploadContentType } from './artifact.ts';
import type { UrlSigner } from './signed-urls.ts';

export interface UploadSettings {
  publicUrl: string;
  ttlSeconds: number;
  maxUploadBytes: number;
}

export interface SignedUpload {
  signedUrl: string;
  fileName: string;
  artifactId: string;
  /** The media type to PUT the file with (a hint: the file's type is decided from its bytes). */
  contentType: string;
  expiresAt: string;
}

const denied = (code: string, message: string) => new DomainError('forbidden', code, message);

export class UploadService {
  private readonly store: Store;
  private readonly blobs: BlobStore;
  private readonly minds: MindService;
  private readonly signer: UrlSigner;
  private readonly rt: Runtime;
  private readonly settings: UploadSettings;
  constructor(
    store: Store,
    blobs: BlobStore,
    minds: MindService,
    signer: UrlSigner,
    rt: Runtime,
    settings: UploadSettings,
  ) {
    this.store = store;
    this.blobs = blobs;
    this.minds = minds;
    this.signer = signer;
    this.rt = rt;
    this.settings = settings;
  }

  async createSignedUrl(
    auth: AuthContext,
    mindId: string,
    opts: { fileName?: string; contentType?: string },
  ): Promise<SignedUpload> {
    await this.minds.require(auth, mindId);
    const artifactId = this.rt.newId();
    const now = this.rt.now();
    const expiresUnix = Math.floor(now.getTime() / 1000) + this.settings.ttlSeconds;
    const expiresAt = iso(new Date(expiresUnix * 1000));
    const fileName = safeFileName(artifactId, opts.fileName, opts.contentType);
    await this.store.repos.artifacts.insert({
      id: artifactId,
      mind_id: mindId,
      account_id: auth.accountId,
      file_name: fileName,
      content_type: opts.contentType ?? null,
      state: 'awaiting_upload',
      size_bytes: null,
      blob_key: artifactBlobKey(mindId, artifactId),
      upload_expires_at: expiresAt,
      uploaded_at: null,
      created_at: iso(now),
    });
    const direct = this.blobs.direct;
    const signedUrl = direct
      ? await direct.presignPut(artifactUploadKey(mindId, artifactId), this.settings.ttlSeconds, now)
      : `${this.settings.publicUrl}/uploads/${artifactId}?expires=${expiresUnix}&signature=${this.signer.sign(artifactId, expiresUnix)}`;
    return { signedUrl, fileName, artifactId, contentType: uploadContentType(opts.fileName, opts.contentType), expiresAt };
  }

  /**
   * Direct uploads (S3): when the snapshot is created, the object written through the presigned
   * URL is checked (HEAD: present, within MAX_UPLOAD_BYTES) and that exact version (its ETag) is
   * copied to the artifact's key, which no URL can write. The artifact is bound to it: a later
   * PUT through the same URL only rewrites the upload key, which is never read again (ignored).
   */
  async settleDirectUpload(artifact: ArtifactRow): Promise<void> {
    const direct = this.blobs.direct;
    if (!direct || artifact.state !== 'awaiting_upload') return;
    const uploadKey = artifactUploadKey(artifact.mind_id, artifact.id);
    const head = await direct.head(uploadKey);
    if (!head) {
      if ((await this.store.repos.artifacts.byId(artifact.id))?.state === 'uploaded') return; // settled by a concurrent request
      throw new DomainError('conflict', 'artifact_not_uploaded', 'Nothing has been uploaded to this artifact yet: PUT the file to its signed URL first.');
    }
    if (head.size > this.settings.maxUploadBytes) {
      await this.blobs.delete(uploadKey);
      throw tooLarge(this.settings.maxUploadBytes, 'The upload');
    }
    await direct.copy(uploadKey, artifact.blob_key, head.etag);
    const artifacts = this.store.repos.artifacts;
    if (await artifacts.transition(artifact.id, 'awaiting_upload', 'uploading')) {
      await artifacts.markUploaded(artifact.id, head.size, artifact.content_type, iso(this.rt.now()));
    }
    await this.blobs.delete(uploadKey);
  }

  /** Checks a signed URL before any byte of the body is read. */
  async authorize(artifactId: string, expires: string | undefined, signature: string | undefined, length?: number) {
    const expiresUnix = Number(expires);
    if (!expires || !signature || !Number.isInteger(expiresUnix) || !this.signer.verify(artifactId, expiresUnix, signature)) {
      throw denied('invalid_signature', 'The upload URL is not valid: its signature does not match.');
    }
    if (this.rt.now().getTime() > expiresUnix * 1000) {
      throw new DomainError('gone', 'signed_url_expired', 'The upload URL has expired; request a new one.');
    }
    if (length !== undefined && length > this.settings.maxUploadBytes) throw tooLarge(this.settings.maxUploadBytes, 'The upload');
    const artifact = await this.store.repos.artifacts.byId(artifactId);
    if (!artifact) throw new DomainError('not_found', 'artifact_not_found', 'The artifact of this upload URL no longer exists.');
    if (artifact.state !== 'awaiting_upload') throw this.usedError(artifact.state);
    return artifact;
  }

  private usedError(state: string) {
    return state === 'uploading'
      ? new DomainError('conflict', 'upload_in_progress', 'An upload to this URL is already in progress.')
      : new DomainError('conflict', 'signed_url_used', 'This upload URL has already been used; upload URLs work once.');
  }

  /**
   * Streams the body into the blob store. The artifact becomes `uploaded` only after the whole
   * blob is in place; a failed or aborted upload leaves the URL usable again until it expires.
   */
  async receive(artifactId: string, body: Readable, contentType: string | null): Promise<{ artifactId: string; size: number }> {
    const artifacts = this.store.repos.artifacts;
    const artifact = await artifacts.byId(artifactId);
    if (!artifact) throw new DomainError('not_found', 'artifact_not_found', 'The artifact no longer exists.');
    if (!(await artifacts.transition(artifactId, 'awaiting_upload', 'uploading'))) {
      throw this.usedError((await artifacts.byId(artifactId))?.state ?? 'uploaded');
    }
    let size: number;
    try {
      ({ size } = await this.blobs.putStream(artifact.blob_key, body, { maxBytes: this.settings.maxUploadBytes }));
    } catch (err) {
      await artifacts.transition(artifactId, 'uploading', 'awaiting_upload');
      throw err;
    }
    await artifacts.markUploaded(artifactId, size, contentType, iso(this.rt.now()));
    if (!(await artifacts.byId(artifactId))) await this.blobs.delete(artifact.blob_key); // mind deleted meanwhile
    return { artifactId, size };
  }
}
