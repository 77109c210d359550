import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { conflict, tooLarge } from '../../domain/errors.ts';
import type { S3Settings } from '../config.ts';
import { checkBlobKey, type BlobStore, type DirectUploads } from './blob-store.ts';

const missing = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');

/**
 * Blobs as objects of one S3-compatible bucket (AWS S3, MinIO…). A PUT is atomic in S3, so a
 * blob is whole or absent. Streams are gathered (at most maxBytes) before the PUT: the API only
 * streams small bodies here, since signed-URL uploads go straight to the bucket.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly direct: DirectUploads;

  /** Signs upload URLs for the address clients use (S3_PUBLIC_ENDPOINT), which may differ from the service's. */
  private readonly presigner: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = S3BlobStore.clientFor(settings, settings.endpoint);
    this.presigner = settings.publicEndpoint ? S3BlobStore.clientFor(settings, settings.publicEndpoint) : this.client;
    const bucket = settings.bucket;
    this.direct = {
      presignPut: (key, ttlSeconds) =>
        getSignedUrl(this.presigner, new PutObjectCommand({ Bucket: bucket, Key: checkBlobKey(key) }), { expiresIn: ttlSeconds }),
      head: async (key) => {
        try {
          const r = await this.client.send(new HeadObjectCommand({ Bucket: bucket, Key: checkBlobKey(key) }));
          return { size: r.ContentLength ?? 0, etag: r.ETag ?? '' };
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      },
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

  async putStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }> {
    checkBlobKey(key);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > opts.maxBytes) {
        body.destroy();
        throw tooLarge(opts.maxBytes, 'The upload');
      }
      chunks.push(b);
    }
    await this.putBuffer(key, Buffer.concat(chunks, size));
    return { size };
  }

  async putBuffer(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key), Body: bytes }));
  }

  async get(key: string): Promise<Buffer> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
    if (!r.Body) throw new Error(`Empty body for blob ${key}`);
    return Buffer.from(await r.Body.transformToByteArray());
  }

  async size(key: string): Promise<number | null> {
    return (await this.direct.head(key))?.size ?? null;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: checkBlobKey(key) }));
  }

  close(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
