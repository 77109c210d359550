import type { Store } from '../store/store.ts';
import type { JournalSegment, TurnJournal } from '../store/turn-journal.ts';
import type { AnsweredTurn } from './conversation.ts';

/** Waiting turns past which one is stored at once rather than after `flushMs`. */
const BATCH = 500;
/** Waiting turns past which, while the database refuses them, a new turn is stored synchronously (its request fails with the database). */
const BACKLOG = 5000;
/** Another API process stores its turns within its `flushMs` plus this (PostgreSQL with deferral on). */
const ELSEWHERE_GRACE_MS = 1000;

export interface PendingTurnsSettings {
  /** How long an answered turn waits to be stored with the ones answered after it (0: stored before the answer, nothing deferred). */
  flushMs: number;
  /** Other API processes share the database (PostgreSQL): a conversation one of them answered may not be stored yet. */
  sharedDatabase: boolean;
}

/** Counted work: batches written (one transaction each), turns stored, turns dropped (their mind or snapshot deleted meanwhile). */
export interface PendingTurnCounts {
  batches: number;
  stored: number;
  dropped: number;
  replayed: number;
}

/**
 * The first turns of new conversations, answered and not yet in the database. A turn is appended to
 * a journal (DATA_DIR/simulation-turns, store/turn-journal.ts) before its answer is sent, so a
 * process killed after answering loses nothing: the journal is read again at the next start. The
 * turns waiting are stored `flushMs` after the first of them, all in one transaction
 * (SimulationsRepo.insertAnswered), then their journal segment is removed; on close, at once.
 *
 * Readers see them: a read of a conversation, of an account's list, or a follow-up turn first
 * stores what it would otherwise miss (`settle`). Only new conversations wait: a new id is known
 * to nobody until its answer is sent, so nothing can conflict with its insert; a follow-up moves a
 * conversation others may move too (a background turn, a deletion) and is stored before it is
 * answered, as before. Without a journal (`SIMULATION_FLUSH_MS=0`, a worker or operator process,
 * a second process on the same data folder) nothing waits.
 */
export class PendingTurns {
  readonly counts: PendingTurnCounts = { batches: 0, stored: 0, dropped: 0, replayed: 0 };
  private journal: TurnJournal | null = null;
  private readonly waiting = new Map<string, AnsweredTurn>();
  /** Segments whose turns were not stored yet (a batch that failed): removed with the next batch that succeeds. */
  private readonly sealed: JournalSegment[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  private readonly store: Store;
  private readonly settings: PendingTurnsSettings;
  private readonly onError: (err: unknown) => void;
  constructor(store: Store, settings: PendingTurnsSettings, onError: (err: unknown) => void = () => {}) {
    this.store = store;
    this.settings = settings;
    this.onError = onError;
    // An erasure stores what waits (turns of an erased mind are dropped) and removes the journal's
    // segments, so no file keeps the erased words (Store.scrub; a failed batch is reported by onError).
    store.onScrub(() => this.flush().catch(() => undefined));
  }

  /** Whether new conversations' turns are stored after their answer (this process holds the journal). */
  get deferring(): boolean {
    return this.journal !== null;
  }

  /** How many answered turns are not in the database yet. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Takes the journal: first stores what a process that stopped without storing them left in it
   * (a turn stored already is not stored twice), then defers new turns. Lines a crash tore are counted, not read.
   */
  async start(journal: TurnJournal): Promise<{ replayed: number; dropped: number; unreadable: number }> {
    if (this.settings.flushMs <= 0) throw new Error('PendingTurns.start: flushMs is 0, nothing is deferred');
    const { turns, segments, unreadable } = journal.leftOver();
    let replayed = 0;
    let dropped = 0;
    if (turns.length > 0) {
      const r = await this.store.transaction(({ repos }) => repos.simulations.insertAnswered(turns));
      replayed = r.stored;
      dropped = r.dropped.length;
      this.counts.replayed += replayed;
    }
    for (const s of segments) journal.remove(s);
    this.journal = journal;
    return { replayed, dropped, unreadable };
  }

  /**
   * Keeps an answered turn (in the journal, then in memory) to be stored with the next batch. False
   * when it was not taken (no journal, the journal could not be written, or a backlog the database
   * keeps refusing): the caller stores it itself.
   */
  add(turn: AnsweredTurn): boolean {
    if (!this.journal) return false;
    if (this.failures > 0 && this.waiting.size >= BACKLOG) return false;
    try {
      this.journal.append(turn);
    } catch (err) {
      this.onError(err);
      return false;
    }
    this.waiting.set(turn.simulation.id, turn);
    if (this.waiting.size >= BATCH) void this.flush().catch(() => undefined);
    else this.schedule();
    return true;
  }

  /** Before reading a conversation (or continuing it): stores it if it is waiting here. */
  settleConversation(simulationId: string): Promise<void> {
    return this.settle((t) => t.simulation.id === simulationId);
  }

  /** Before listing an account's conversations: stores those of its turns waiting here. */
  settleAccount(accountId: string): Promise<void> {
    return this.settle((t) => t.simulation.accountId === accountId);
  }

  /**
   * Reads what a turn answered here or on another API process may have created: with other
   * processes deferring their turns on the same database (PostgreSQL, SIMULATION_FLUSH_MS set), a
   * conversation not found yet is read again until their flush interval (plus a grace) has passed.
   */
  async find<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
    const found = await read();
    const { flushMs, sharedDatabase } = this.settings;
    if (found !== undefined || !sharedDatabase || flushMs <= 0) return found;
    const step = Math.min(Math.max(25, Math.ceil(flushMs / 4)), 250);
    for (let waited = 0; waited < flushMs + ELSEWHERE_GRACE_MS; waited += step) {
      await new Promise((r) => setTimeout(r, step));
      const again = await read();
      if (again !== undefined) return again;
    }
    return undefined;
  }

  /** Stores every turn waiting now (one transaction), after the batch being written, if any. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.waiting.size === 0) return;
    const run = this.write();
    this.writing = run;
    try {
      await run;
    } finally {
      if (this.writing === run) this.writing = null;
    }
  }

  /** Stores what is waiting and gives the journal up; what cannot be stored now stays in the journal for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      await this.flush();
    } catch (err) {
      this.onError(err);
    }
    this.journal?.close();
    this.journal = null;
  }

  /** Stores the turns `match` picks among those waiting now, and any waiting with them (a turn answered after this call is not waited for). */
  private async settle(match: (t: AnsweredTurn) => boolean): Promise<void> {
    if (this.waiting.size === 0) return;
    const ids = [...this.waiting.values()].filter(match).map((t) => t.simulation.id);
    while (ids.some((id) => this.waiting.has(id))) await this.flush();
  }

  private schedule(): void {
    if (this.timer || this.closed || this.waiting.size === 0) return;
    // While the database refuses batches, wait longer each time (up to 64 times flushMs, at most 30 s).
    const delay = Math.min(this.settings.flushMs * 2 ** Math.min(this.failures, 6), Math.max(this.settings.flushMs, 30_000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => undefined);
    }, delay);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const segment = this.journal?.seal();
    if (segment) this.sealed.push(segment);
    const batch = [...this.waiting.values()];
    const segments = [...this.sealed];
    try {
      const r = await this.store.transaction(({ repos }) => repos.simulations.insertAnswered(batch));
      for (const t of batch) this.waiting.delete(t.simulation.id);
      for (const s of segments) this.journal?.remove(s);
      this.sealed.splice(0, segments.length);
      this.failures = 0;
      this.counts.batches++;
      this.counts.stored += r.stored;
      this.counts.dropped += r.dropped.length;
    } catch (err) {
      this.failures++;
      this.onError(err);
      throw err;
    } finally {
      this.schedule();
    }
  }
}
