export { MindsimClient, type CreateSnapshotOptions, type ListOptions, type MindListOptions, type SnapshotDetailsOptions, type SnapshotSource, type UploadOptions, type WaitOptions } from './client.ts';
export { ApiError, WaitTimeoutError } from './errors.ts';
export { dispositionFileName, type MindExportDownload } from './exports.ts';
export { Paginated } from './pagination.ts';
export { Panels, type PanelWaitOptions } from './panels.ts';
export { Simulations, type SimulationEvent, type SimulationListOptions } from './simulations.ts';
export { retryAfterMs, type ClientOptions } from './transport.ts';
export type { ProgressListener, UploadSource } from './upload-body.ts';
export type * from './types.ts';
