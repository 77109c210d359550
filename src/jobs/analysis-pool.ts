import { Piscina } from 'piscina';
import type { AnalysisResult, AnalysisTask, EmbeddedPassages, EmbeddedTexts, Fidelity } from './transcript-analysis.ts';
import type { Memory } from '../memory/types.ts';

/**
 * The backstop on embedding a snapshot's passages: the analysis time limit plus this much per word.
 * The encoder takes ~0.45 ms of one core per word (BENCHMARKS.md): ten times that, so only a stuck
 * thread reaches it.
 */
export const EMBED_MS_PER_WORD = 5;

interface SelfCheckTask {
  memories: Memory[];
  passages: EmbeddedPassages;
}

export interface AnalysisSettings {
  threads: number;
  timeoutMs: number;
  maxMemoryMb: number;
  /** The module the threads run; the transcript analysis unless a test swaps in another. */
  moduleUrl?: string;
}

/** Transcript analysis, isolated in worker threads with a memory cap and a time limit. */
export class AnalysisPool {
  /** Runs `analyse` (the default export), `embed` and `selfCheck` of transcript-analysis.ts. */
  private readonly pool: Piscina<AnalysisTask | { texts: string[] } | SelfCheckTask, AnalysisResult | EmbeddedTexts | Fidelity | null>;

  private readonly settings: AnalysisSettings;
  constructor(settings: AnalysisSettings, onThreadError: (err: unknown) => void = () => {}) {
    this.settings = settings;
    this.pool = new Piscina({
      filename: settings.moduleUrl ?? new URL('./transcript-analysis.ts', import.meta.url).href,
      minThreads: 1,
      maxThreads: settings.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: settings.maxMemoryMb },
    });
    // A thread can die after its task was already given up on (e.g. out of memory after the
    // time limit); the pool reports that as an 'error' event, which must never crash the process.
    this.pool.on('error', onThreadError);
  }

  /**
   * The analysis of one file. A file that exhausts the thread's memory or time fails the same way
   * every time, so it comes back as a permanent failure rather than an error to retry.
   */
  async analyse(task: AnalysisTask): Promise<AnalysisResult> {
    try {
      return (await this.pool.run(task, {
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        transferList: [task.bytes.buffer as ArrayBuffer],
      })) as AnalysisResult;
    } catch (err) {
      const e = err as { name?: string; code?: string };
      if (e.name === 'AbortError' || e.name === 'TimeoutError') {
        return { ok: false, code: 'processing_timeout', message: `Reading the file took longer than ${this.settings.timeoutMs} ms.` };
      }
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { ok: false, code: 'file_too_complex', message: `Reading the file needed more than ${this.settings.maxMemoryMb} MB of memory.` };
      }
      throw err;
    }
  }

  /** The encoder's vectors of these texts (a snapshot's passages), in a thread of the pool. */
  async embed(texts: string[]): Promise<EmbeddedTexts> {
    const words = texts.reduce((n, t) => n + t.split(' ').length, 0);
    return (await this.pool.run({ texts }, { name: 'embed', signal: AbortSignal.timeout(this.settings.timeoutMs + words * EMBED_MS_PER_WORD) })) as EmbeddedTexts;
  }

  /** The snapshot's self-check over its embedded passages, in a thread of the pool, within the analysis time limit. */
  async selfCheck(memories: Memory[], passages: EmbeddedPassages): Promise<Fidelity | null> {
    return (await this.pool.run({ memories, passages }, { name: 'selfCheck', signal: AbortSignal.timeout(this.settings.timeoutMs) })) as Fidelity | null;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
