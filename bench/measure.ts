import fs from 'node:fs';
import { waitForSnapshot, type Client } from '../test/support/server.ts';

/** Resident memory of a process, in bytes, from /proc. */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Waits for a snapshot to complete and returns its own createdAt → completedAt time, in ms. */
export async function processingMs(api: Client, mindId: string, snapshotId: string, timeoutMs?: number): Promise<number> {
  const s = await waitForSnapshot(api, mindId, snapshotId, timeoutMs);
  if (s.status !== 'completed') throw new Error(`snapshot ${snapshotId} ${s.status}: ${JSON.stringify(s.error)}`);
  return Date.parse(s.completedAt) - Date.parse(s.createdAt);
}
