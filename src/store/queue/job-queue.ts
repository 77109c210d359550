/** A durable job queue with leases: a claimed job whose worker dies is handed out again. */
export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  maxAttempts?: number;
  delayMs?: number;
  /**
   * Jobs of one group take turns with other groups' (e.g. one account's snapshots with another's):
   * a claim prefers the group with the fewest jobs running, then the one served least recently.
   */
  group?: string;
}

export interface JobQueue {
  enqueue(kind: string, payload: unknown, opts?: EnqueueOptions): Promise<string>;
  /** Claims the next runnable job for leaseMs (groups taking turns, see EnqueueOptions.group), or null. */
  claim(workerId: string, leaseMs: number): Promise<ClaimedJob | null>;
  /** Extends the lease; false when the job is no longer this worker's. */
  extend(jobId: string, workerId: string, leaseMs: number): Promise<boolean>;
  complete(jobId: string, workerId: string): Promise<void>;
  retry(jobId: string, workerId: string, error: string, delayMs: number): Promise<void>;
  fail(jobId: string, workerId: string, error: string): Promise<void>;
  /** Gives a job in hand back untouched (its attempt not counted), e.g. when the worker shuts down. */
  release(jobId: string, workerId: string): Promise<void>;
  /** Ends jobs whose lease expired on their last attempt, and returns them so their owners can be told. */
  reapExhausted(): Promise<ClaimedJob[]>;
}
