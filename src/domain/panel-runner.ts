/**
 * Answers a panel's units (the job RUN_PANEL_UNIT): one mind, every question, its memory loaded
 * once. The answers are stored with the unit's move out of `pending` in one transaction that
 * first holds the panel (`holdActive`): a unit redelivered after its worker died stores nothing
 * twice, a unit of a cancelled or deleted panel stores nothing, and the last unit to finish
 * settles the panel exactly once.
 */
import type { RedactionService } from './redaction.ts';
import pLimit from 'p-limit';
import type { EngineRegistry } from '../engines/registry.ts';
import type { TypedAnswer } from '../engines/questions.ts';
import { DomainError } from '../kernel/errors.ts';
import { iso, type Runtime } from '../kernel/runtime.ts';
import type { Store } from '../store/store.ts';
import type { MindMemories } from './mind-memory.ts';
import { ConsentPolicy, panelUses, usesLanguageModel } from './consent.ts';
import { resolveModel } from './models.ts';
import { answeringSnapshotIds } from './snapshots.ts';
import { isFinalPanel, type PanelAnswer, type PanelRecord, type PanelUnit } from './panel.ts';

/** Lets other work of this process (API requests, lease heartbeats) run between two answers. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export class PanelRunner {
  private readonly store: Store;
  private readonly engines: EngineRegistry;
  private readonly memories: MindMemories;
  private readonly rt: Runtime;
  /** How many questions of one unit an engine that calls out (the LLM) answers at once; the offline engine answers one at a time. */
  private readonly llmConcurrency: number;
  /** Checked again as each unit runs: a consent that expired since the panel was made refuses its unit. */
  private readonly consent: ConsentPolicy;
  private redaction: RedactionService | null = null;
  constructor(store: Store, engines: EngineRegistry, memories: MindMemories, rt: Runtime, llmConcurrency = 1) {
    this.store = store;
    this.engines = engines;
    this.memories = memories;
    this.rt = rt;
    this.llmConcurrency = llmConcurrency;
    this.consent = new ConsentPolicy(store.repos, rt);
  }

  /** Every prompt about a mind whose redaction is on goes through its redaction (composition root). */
  redacting(redaction: RedactionService): this {
    this.redaction = redaction;
    return this;
  }

  /**
   * Answers the unit and stores its answers. Idempotent: a unit no longer pending, or of a panel
   * that is final or gone, is left alone. A mind that can no longer be answered (no completed
   * snapshot, its model unknown) fails the unit at once; anything else (the LLM down) is thrown
   * for the queue to retry.
   */
  async runUnit(unitId: string): Promise<void> {
    const { panels } = this.store.repos;
    const unit = await panels.unit(unitId);
    if (!unit || unit.status !== 'pending') return;
    const panel = await panels.anyAccount(unit.panelId);
    if (!panel || isFinalPanel(panel.status)) return;
    // Only the first unit moves the panel: a write per unit would also wait, on PostgreSQL, for
    // the panel row another worker holds while it stores its unit (holdActive).
    if (panel.status === 'queued') await panels.move(panel.id, 'start', iso(this.rt.now()));
    let answers: PanelAnswer[];
    let snapshotIds: string[];
    try {
      const mind = await this.store.repos.minds.byId(panel.accountId, unit.mindId);
      if (!mind) return this.failUnit(unitId, 'The mind was erased.'); // its unit normally goes with it (PanelsRepo.deleteOfMind)
      await this.consent.check(panel.accountId, mind, panelUses(usesLanguageModel(panel.model)));
      snapshotIds = await answeringSnapshotIds(this.store, unit.mindId, undefined, () => new DomainError('conflict', 'snapshot_not_ready', 'The mind has no completed snapshot any more.'));
      answers = await this.answer(panel, unit, snapshotIds);
    } catch (err) {
      if (err instanceof DomainError && err.kind !== 'upstream' && err.kind !== 'unavailable') return this.failUnit(unitId, err.message);
      throw err;
    }
    await this.store.transaction(async ({ repos }) => {
      const at = iso(this.rt.now());
      if (!(await repos.panels.holdActive(panel.id, at))) return;
      if (!(await repos.panels.finishUnit(unit.id, 'done', at, snapshotIds, null))) return;
      await repos.panelAnswers.insert(panel, answers);
      await repos.panels.settle(panel.id, at);
    });
  }

  /** The unit could not be answered (after every retry): failed, and the panel settled if it was the last. */
  async failUnit(unitId: string, message: string): Promise<void> {
    const unit = await this.store.repos.panels.unit(unitId);
    if (!unit) return;
    await this.store.transaction(async ({ repos }) => {
      const at = iso(this.rt.now());
      if (!(await repos.panels.holdActive(unit.panelId, at))) return;
      if (!(await repos.panels.finishUnit(unit.id, 'failed', at, null, message))) return;
      await repos.panels.settle(unit.panelId, at);
    });
  }

  private async answer(panel: PanelRecord, unit: PanelUnit, snapshotIds: readonly string[]): Promise<PanelAnswer[]> {
    const { engine } = resolveModel(this.engines, false, panel.model);
    const memory = await this.memories.memory(snapshotIds);
    const context = engine.wantsContext ? await this.memories.context(snapshotIds) : undefined;
    const mind = engine.wantsContext && this.redaction ? await this.store.repos.minds.anyAccount(unit.mindId) : undefined;
    const redaction = mind ? this.redaction?.forMind(mind, memory) : undefined;
    // The offline engine is CPU work: one question at a time, yielding between them. The LLM waits on
    // the network: a few questions in flight at once (the provider's 429s are retried by the AI SDK).
    const limit = pLimit(engine.wantsContext ? this.llmConcurrency : 1);
    return Promise.all(
      panel.questions.map((question, questionIndex) =>
        limit(async (): Promise<PanelAnswer> => {
          const a: TypedAnswer = await engine.answerQuestion({ mindName: unit.mindName, memory, question, ...(context ? { context } : {}), ...(redaction ? { redaction } : {}) });
          await breathe();
          return { unitSeq: unit.seq, questionIndex, mindId: unit.mindId, ...a, createdAt: iso(this.rt.now()) };
        }),
      ),
    );
  }
}
