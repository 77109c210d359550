import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Where state and files live: the embedded defaults, or PostgreSQL and S3 for scale-out. Documented in docs/OPERATIONS.md. */
const StoreSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  BLOB_STORE: z.enum(['filesystem', 's3']).default('filesystem'),
  S3_ENDPOINT: z.url().optional(),
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_DIRECT_UPLOADS: bool.default(false),
});

export interface S3Settings {
  /** Unset: the AWS endpoint of the region. */
  endpoint: string | undefined;
  /** The address clients reach the store at, for presigned URLs, when it differs from `endpoint`. */
  publicEndpoint?: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's default credential chain (environment, instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /**
   * Signed URLs are presigned S3 PUTs straight to the bucket (opt-in) instead of the service's own
   * one-time upload URL streaming to the bucket; docs/OPERATIONS.md says what each guarantees.
   */
  directUploads?: boolean;
}

export interface StoreConfig {
  /** PostgreSQL instead of the SQLite file in DATA_DIR. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** S3-compatible storage instead of DATA_DIR/blobs. */
  s3: S3Settings | null;
}

export function loadStoreConfig(env: NodeJS.ProcessEnv): StoreConfig {
  const parsed = StoreSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.BLOB_STORE === 's3' && !c.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET is required with BLOB_STORE=s3.');
  if ((c.S3_ACCESS_KEY_ID === undefined) !== (c.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new Error('Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  return {
    databaseUrl: c.DATABASE_URL,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    s3:
      c.BLOB_STORE === 's3' && c.S3_BUCKET
        ? {
            endpoint: c.S3_ENDPOINT,
            publicEndpoint: c.S3_PUBLIC_ENDPOINT,
            bucket: c.S3_BUCKET,
            region: c.S3_REGION,
            credentials:
              c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: c.S3_FORCE_PATH_STYLE,
            directUploads: c.S3_DIRECT_UPLOADS,
          }
        : null,
  };
}
