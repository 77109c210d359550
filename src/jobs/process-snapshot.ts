import type { Logger } from 'pino';
import { z } from 'zod';
import { iso, type Runtime } from '../domain/runtime.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Store } from '../store/store.ts';
import type { Reflect } from '../engines/llm-reflections.ts';
import type { AnalysisResult, AnalysisTask } from './transcript-analysis.ts';
import type { JobHandler } from './worker.ts';

const Payload = z.object({ snapshotId: z.string() });

/**
 * Turns an uploaded transcript into the snapshot's memory bank. Idempotent: a redelivered job
 * replaces the memories it wrote before, and a completed or deleted snapshot is left alone.
 * A problem with the file itself (reported by the analysis) ends the snapshot `failed`; anything
 * else is thrown for a retry.
 *
 * With an LLM configured, four expert reflections are written too (network I/O, so here and not
 * in the analysis thread). They are best-effort: the SDK retries a failing call a few times; if it
 * still fails, the snapshot completes without them and `reflections_error` records why — the
 * memories and profile are valid, and both engines answer without reflections.
 */
export class ProcessSnapshotJob implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly rt: Runtime,
    private readonly log: Logger,
    private readonly analyse: (task: AnalysisTask) => Promise<AnalysisResult>,
    private readonly reflect: Reflect | null = null,
  ) {}

  async run(payload: unknown): Promise<void> {
    const { snapshotId } = Payload.parse(payload);
    const { snapshots, artifacts, minds } = this.store.repos;
    const snap = await snapshots.byId(snapshotId);
    if (!snap || snap.status === 'completed' || snap.status === 'failed') return;
    await snapshots.update(snap.id, { status: 'processing', started_at: snap.started_at ?? iso(this.rt.now()) });

    const artifact = await artifacts.byId(snap.artifact_id);
    const mind = await minds.byId(snap.account_id, snap.mind_id);
    if (!artifact || !mind) return; // deleted while queued
    const bytes = await this.blobs.get(artifact.blob_key);

    const t0 = performance.now();
    // A copy with its own ArrayBuffer, handed over (not cloned) to the analysis thread.
    const result = await this.analyse({ bytes: new Uint8Array(bytes), mindName: mind.name, speaker: snap.speaker });
    if (!result.ok) {
      await this.fail(snap.id, result.code, result.message);
      return;
    }
    const { format, person } = result;

    const rows = result.memories.map((m) => ({
      snapshot_id: snap.id,
      mind_id: snap.mind_id,
      seq: m.seq,
      speaker: m.speaker,
      text: m.text,
      start_s: m.start,
      end_s: m.end,
      page: m.page,
      question: m.question,
    }));
    const reflected = await this.reflections(snap.id, mind.name, result);
    const now = iso(this.rt.now());
    await this.store.transaction(async ({ repos }) => {
      if (!(await repos.snapshots.byId(snap.id))) return;
      await repos.snapshots.replaceMemories(snap.id, rows);
      await repos.profiles.saveProfile({ snapshot_id: snap.id, mind_id: snap.mind_id, profile: JSON.stringify(result.profile), created_at: now });
      await repos.profiles.replaceReflections(
        snap.id,
        (reflected.ok ? reflected.reflections : []).map((r) => ({
          snapshot_id: snap.id,
          mind_id: snap.mind_id,
          expert: r.expert,
          text: r.text,
          model: reflected.ok ? reflected.model : '',
          created_at: now,
        })),
      );
      await repos.snapshots.update(snap.id, {
        status: 'completed',
        completed_at: iso(this.rt.now()),
        file_kind: format,
        person,
        memory_count: rows.length,
        fidelity: result.fidelity ? JSON.stringify(result.fidelity) : null,
        reflections_error: reflected.ok ? null : reflected.error,
        error_code: null,
        error_message: null,
      });
    });
    this.log.info(
      { snapshotId: snap.id, format, memories: rows.length, ms: Math.round(performance.now() - t0) },
      'snapshot completed',
    );
  }

  /** The expert reflections, or why there are none (null error: no LLM configured). */
  private async reflections(
    snapshotId: string,
    mindName: string,
    result: Extract<AnalysisResult, { ok: true }>,
  ): Promise<{ ok: true; model: string; reflections: Array<{ expert: string; text: string }> } | { ok: false; error: string | null }> {
    if (!this.reflect) return { ok: false, error: null };
    try {
      const r = await this.reflect({ mindName, profile: result.profile, memories: result.memories });
      return { ok: true, ...r };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.log.warn({ snapshotId, err: error }, 'expert reflections failed; completing without them');
      return { ok: false, error };
    }
  }

  async exhausted(payload: unknown, error: string): Promise<void> {
    const { snapshotId } = Payload.parse(payload);
    const snap = await this.store.repos.snapshots.byId(snapshotId);
    if (!snap || snap.status === 'completed' || snap.status === 'failed') return;
    await this.fail(snapshotId, 'processing_failed', `Processing failed after every retry: ${error}`);
  }

  async fail(snapshotId: string, code: string, message: string): Promise<void> {
    await this.store.repos.snapshots.update(snapshotId, {
      status: 'failed',
      completed_at: iso(this.rt.now()),
      error_code: code,
      error_message: message,
    });
    this.log.info({ snapshotId, code }, 'snapshot failed');
  }
}
