export { MindsimClient, type CreateSnapshotOptions, type ListOptions, type SnapshotDetailsOptions, type SnapshotSource, type UploadOptions, type WaitOptions } from './client.ts';
export { ApiError, WaitTimeoutError } from './errors.ts';
export { Paginated } from './pagination.ts';
export { retryAfterMs, type ClientOptions } from './transport.ts';
export type { ProgressListener, UploadSource } from './upload-body.ts';
export type * from './types.ts';
