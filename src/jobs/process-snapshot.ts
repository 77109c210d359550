import type { RedactionService } from '../domain/redaction.ts';
import type { TextRedaction } from '../engines/llm-redacting.ts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Store } from '../store/store.ts';
import type { Reflect } from '../engines/llm-reflections.ts';
import type { EstimatePsychometrics, PsychometricEstimates } from '../engines/llm-psychometrics.ts';
import type { AnalysisResult, AnalysisTask, EmbeddedPassages, EmbeddedTexts, Fidelity } from './transcript-analysis.ts';
import type { Memory } from '../memory/types.ts';
import type { JobHandler } from './worker.ts';
import { LLM_NOT_CONSENTED, covers } from '../domain/consent.ts';

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
 * memories and profile are valid, and both engines answer without reflections. The LLM's
 * psychometric estimates (Big Five, and the passages each reflection rests on) follow the same
 * rule (`snapshot_psychometrics.estimates_error`). The parsed turns and the linguistic markers are
 * stored with the memories.
 */
export class ProcessSnapshotJob implements JobHandler {
  private readonly store: Store;
  private readonly blobs: BlobStore;
  private readonly rt: Runtime;
  private readonly log: Logger;
  private readonly analyse: (task: AnalysisTask) => Promise<AnalysisResult>;
  private readonly embed: (texts: string[]) => Promise<EmbeddedTexts>;
  private readonly selfCheck: (memories: Memory[], passages: EmbeddedPassages) => Promise<Fidelity | null>;
  private readonly reflect: Reflect | null;
  private readonly estimate: EstimatePsychometrics | null;
  private redaction: RedactionService | null = null;
  constructor(
    store: Store,
    blobs: BlobStore,
    rt: Runtime,
    log: Logger,
    analysis: {
      analyse: (task: AnalysisTask) => Promise<AnalysisResult>;
      embed: (texts: string[]) => Promise<EmbeddedTexts>;
      selfCheck: (memories: Memory[], passages: EmbeddedPassages) => Promise<Fidelity | null>;
    },
    reflect: Reflect | null = null,
    estimate: EstimatePsychometrics | null = null,
  ) {
    this.store = store;
    this.blobs = blobs;
    this.rt = rt;
    this.log = log;
    this.analyse = analysis.analyse;
    this.embed = analysis.embed;
    this.selfCheck = analysis.selfCheck;
    this.reflect = reflect;
    this.estimate = estimate;
  }

  /** With a mind's redaction on: values replaced before storing (stored), and in every LLM prompt (composition root). */
  redacting(redaction: RedactionService): this {
    this.redaction = redaction;
    return this;
  }

  async run(payload: unknown): Promise<void> {
    const { snapshotId } = Payload.parse(payload);
    const { snapshots, artifacts, minds } = this.store.repos;
    const snap = await snapshots.byId(snapshotId);
    if (!snap || !(await snapshots.start(snap.id, iso(this.rt.now())))) return; // final already, or deleted

    const artifact = await artifacts.byId(snap.artifactId);
    const mind = await minds.byId(snap.accountId, snap.mindId);
    if (!artifact || !mind) return; // deleted while queued
    let bytes: Buffer;
    try {
      bytes = await this.blobs.get(artifact.blob_key);
    } catch (err) {
      if (!(await snapshots.byId(snap.id))) return; // the snapshot was deleted with its file meanwhile
      throw err;
    }

    const t0 = performance.now();
    // A copy with its own ArrayBuffer, handed over (not cloned) to the analysis thread.
    const ingestion = (await this.redaction?.forIngestion(mind)) ?? null;
    const result = await this.analyse({ bytes: new Uint8Array(bytes), mindName: mind.name, speaker: snap.speaker, redaction: ingestion });
    if (!result.ok) {
      await this.fail(snap.id, result.code, result.message);
      return;
    }
    const { format, person, memories } = result;
    // The passages' vectors (the sentence encoder, in an analysis thread): what search ranks, never recomputed at query time.
    const embedded = await this.embed(result.passages.texts);
    const fidelity = await this.checkFidelity(snap.id, memories, { encoder: embedded.encoder, spans: result.passages.spans, vectors: embedded.vectors });
    // The person's words go to the LLM provider only under a consent whose scope has "llm" (unexpired), whatever the account's setting.
    const llmConsented = covers(mind, 'llm', this.rt.now());
    // With the mind's redaction on, the LLM's prompts pass through it (the person and the mind's name are not third parties).
    const redaction = this.redaction?.forMind(mind, undefined, [person]);
    const reflected = llmConsented ? await this.reflections(snap.id, mind.name, result, redaction) : { ok: false as const, error: null };
    const estimated =
      llmConsented || !this.estimate
        ? await this.estimates(snap.id, mind.name, result, reflected.ok ? reflected.reflections : [], redaction)
        : { ok: false as const, error: LLM_NOT_CONSENTED };
    const now = iso(this.rt.now());
    const outcome = {
      fileKind: format,
      person,
      memoryCount: memories.length,
      tokenCount: result.profile.style.words,
      fidelity,
      reflectionsError: reflected.ok ? null : reflected.error,
    };
    const completed = await this.store.transaction(async ({ repos }) => {
      // The move first: a snapshot deleted or failed meanwhile gets no memories.
      if (!(await repos.snapshots.complete(snap.id, outcome, now))) return false;
      await repos.snapshots.replaceMemories(snap.id, snap.mindId, memories);
      // Third parties first numbered by this snapshot (a clash with another writer rolls back and retries the job).
      await repos.redactionPeople.insertAssigned(snap.mindId, result.redactionAssigned ?? [], now);
      await repos.passages.save(
        snap.mindId,
        { snapshotId: snap.id, encoder: embedded.encoder, spans: result.passages.spans, vectors: embedded.vectors },
        now,
      );
      await repos.profiles.saveProfile({ snapshot_id: snap.id, mind_id: snap.mindId, profile: JSON.stringify(result.profile), created_at: now });
      await repos.profiles.replaceReflections(
        snap.id,
        (reflected.ok ? reflected.reflections : []).map((r) => ({
          snapshot_id: snap.id,
          mind_id: snap.mindId,
          expert: r.expert,
          text: r.text,
          model: reflected.ok ? reflected.model : '',
          created_at: now,
        })),
      );
      await repos.transcripts.save({ snapshot_id: snap.id, mind_id: snap.mindId, turns: JSON.stringify(result.turns), truncated: result.truncated ? 1 : 0, created_at: now });
      await repos.psychometrics.save({
        snapshot_id: snap.id,
        mind_id: snap.mindId,
        markers: JSON.stringify(result.markers),
        estimates: estimated.ok ? JSON.stringify(estimated.estimates) : null,
        estimates_model: estimated.ok ? estimated.model : null,
        estimates_error: estimated.ok ? null : estimated.error,
        created_at: now,
      });
      return true;
    });
    if (!completed) return;
    this.log.info(
      { snapshotId: snap.id, format, memories: memories.length, ms: Math.round(performance.now() - t0) },
      'snapshot completed',
    );
  }

  /**
   * The self-check (a quality figure shown with the snapshot, not what makes it usable): a check
   * that fails or runs out of time leaves it null, and the snapshot completes.
   */
  private async checkFidelity(snapshotId: string, memories: Memory[], passages: EmbeddedPassages): Promise<Fidelity | null> {
    try {
      return await this.selfCheck(memories, passages);
    } catch (err) {
      this.log.warn({ snapshotId, err: err instanceof Error ? err.message : String(err) }, 'self-check failed; completing without it');
      return null;
    }
  }

  /** The expert reflections, or why there are none (null error: no LLM configured). */
  private async reflections(
    snapshotId: string,
    mindName: string,
    result: Extract<AnalysisResult, { ok: true }>,
    redaction: TextRedaction | undefined,
  ): Promise<{ ok: true; model: string; reflections: Array<{ expert: string; text: string }> } | { ok: false; error: string | null }> {
    if (!this.reflect) return { ok: false, error: null };
    try {
      const r = await this.reflect({ mindName, profile: result.profile, memories: result.memories, ...(redaction ? { redaction } : {}) });
      return { ok: true, ...r };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.log.warn({ snapshotId, err: error }, 'expert reflections failed; completing without them');
      return { ok: false, error };
    }
  }

  /** The LLM's psychometric estimates, or why there are none (null error: no LLM configured). */
  private async estimates(
    snapshotId: string,
    mindName: string,
    result: Extract<AnalysisResult, { ok: true }>,
    reflections: Array<{ expert: string; text: string }>,
    redaction: TextRedaction | undefined,
  ): Promise<{ ok: true; model: string; estimates: PsychometricEstimates } | { ok: false; error: string | null }> {
    if (!this.estimate) return { ok: false, error: null };
    try {
      return { ok: true, ...(await this.estimate({ mindName, memories: result.memories, reflections, ...(redaction ? { redaction } : {}) })) };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      this.log.warn({ snapshotId, err: error }, 'psychometric estimates failed; completing without them');
      return { ok: false, error };
    }
  }

  async exhausted(payload: unknown, error: string): Promise<void> {
    const { snapshotId } = Payload.parse(payload);
    await this.fail(snapshotId, 'processing_failed', `Processing failed after every retry: ${error}`);
  }

  /** Fails the snapshot unless it is final already (or gone). */
  async fail(snapshotId: string, code: string, message: string): Promise<void> {
    if (await this.store.repos.snapshots.fail(snapshotId, { code, message }, iso(this.rt.now()))) this.log.info({ snapshotId, code }, 'snapshot failed');
  }
}
