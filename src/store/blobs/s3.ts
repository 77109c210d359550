import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { conflict, tooLarge } from '../../kernel/errors.ts';
import type { S3Settings } from '../config.ts';
import { checkBlobKey, type BlobStore, type DirectUploads } from './blob-store.ts';
import { ByteLimit } from './byte-limit.ts';

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');

/** Parts of a streamed upload: S3's minimum part size; at most two in flight per upload (~10 MB of memory). */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Blobs as objects of one S3-compatible bucket (AWS S3, MinIO, R2…). A PUT (or a completed
 * multipart upload) is atomic in S3, so a blob is whole or absent. Streams are sent as they
 * arrive (@aws-sdk/lib-storage: one PUT under 5 MB, else a multipart upload aborted on error).
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  /** Only with S3_DIRECT_UPLOADS: presigned PUTs to the bucket instead of the service's upload URL. */
  readonly direct?: DirectUploads;

  /** Signs upload URLs for the address clients use (S3_PUBLIC_ENDPOINT), which may differ from the service's. */
  private readonly presigner: S3Client;

  private readonly settings: S3Settings;
  constructor(settings: S3Settings) {
    this.settings = settings;
    this.client = S3BlobStore.clientFor(settings, settings.endpoint);
    this.presigner = settings.publicEndpoint ? S3BlobStore.clientFor(settings, settings.publicEndpoint) : this.client;
    if (settings.directUploads) this.direct = this.directUploads();
  }

  private directUploads(): DirectUploads {
    const bucket = this.settings.bucket;
    return {
      presignPut: (key, ttlSeconds, signedAt) =>
        getSignedUrl(this.presigner, new PutObjectCommand({ Bucket: bucket, Key: checkBlobKey(key) }), { expiresIn: ttlSeconds, signingDate: signedAt }),
      head: (key) => this.head(key),
      copy: async (from, to, etag) => {
        try {
          await this.client.send(
            new CopyObjectCommand({
              Bucket: bucket,
              Key: checkBlobKey(to),
              CopySource: `${bucket}/${checkBlobKey(from)}`,
              CopySourceIfMatch: etag,
            }),
          );
        } catch (err) {
          if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 412) {
            throw conflict('upload_changed', 'The uploaded file changed while the snapshot was being created; try again.');
          }
          throw err;
        }
      },
    };
  }

  private static clientFor(settings: S3Settings, endpoint: string | undefined): S3Client {
    return new S3Client({
      endpoint,
      region: settings.region,
      credentials: settings.credentials,
      forcePathStyle: settings.forcePathStyle,
      // Only checksum when an operation requires it: S3-compatible servers vary in their support.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private async head(key: string): Promise<{ size: number; etag: string } | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
      return { size: r.ContentLength ?? 0, etag: r.ETag ?? '' };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async putStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }> {
    checkBlobKey(key);
    const limit = new ByteLimit(opts.maxBytes);
    body.once('error', (err) => limit.destroy(err));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: body.pipe(limit) },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      if (limit.exceeded) throw tooLarge(opts.maxBytes, 'The upload');
      throw err;
    }
    return { size: limit.bytes };
  }

  async putBuffer(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key), Body: bytes }));
  }

  async get(key: string): Promise<Buffer> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
    if (!r.Body) throw new Error(`Empty body for blob ${key}`);
    return Buffer.from(await r.Body.transformToByteArray());
  }

  async getStream(key: string): Promise<Readable> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
    // In Node.js the SDK's body is an http.IncomingMessage (a Readable).
    if (!(r.Body instanceof Readable)) throw new Error(`Blob ${key} has no readable body`);
    return r.Body;
  }

  async size(key: string): Promise<number | null> {
    return (await this.head(key))?.size ?? null;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
  }

  /** Lists the folder and deletes object by object (DeleteObjects needs checksums not every store takes). */
  async deletePrefix(prefix: string): Promise<void> {
    const Prefix = `${checkBlobKey(prefix)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix, ContinuationToken: token }));
      await Promise.all((page.Contents ?? []).flatMap((o) => (o.Key ? [this.delete(o.Key)] : [])));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
