/**
 * Model names clients can ask for, and the engine that serves each.
 *
 * - `mind-reasoner-standard`: the offline grounded engine, always available.
 * - `mind-reasoner-pro` (the default): the LLM engine when one is configured. Without one,
 *   requests for pro fall back to the grounded engine and `resolve` reports
 *   `model: 'mind-reasoner-standard'` — the model that actually ran — so responses never claim
 *   an LLM answer that did not happen. `list()` shows pro as `available: false` in that case.
 */
import type { Engine } from './types.ts';

export const MODEL_NAMES = ['mind-reasoner-standard', 'mind-reasoner-pro'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];
export const DEFAULT_MODEL: ModelName = 'mind-reasoner-pro';

export interface ModelInfo {
  id: ModelName;
  description: string;
  engine: 'grounded' | 'llm';
  /** False when the model cannot run as itself (pro without an LLM: served by standard instead). */
  available: boolean;
}

export interface ResolvedModel {
  /** The model that will actually answer (may differ from the one asked for; see the module comment). */
  model: ModelName;
  engine: Engine;
}

export function isModelName(name: string): name is ModelName {
  return (MODEL_NAMES as readonly string[]).includes(name);
}

export class EngineRegistry {
  private readonly engines: { grounded: Engine; llm?: Engine };
  constructor(engines: { grounded: Engine; llm?: Engine }) {
    this.engines = engines;
  }

  /**
   * The model and engine for a requested name (exact match; undefined or empty means DEFAULT_MODEL).
   * Null for an unknown name.
   */
  resolve(name?: string): ResolvedModel | null {
    const wanted = name || DEFAULT_MODEL;
    if (!isModelName(wanted)) return null;
    if (wanted === 'mind-reasoner-pro' && this.engines.llm) return { model: wanted, engine: this.engines.llm };
    return { model: 'mind-reasoner-standard', engine: this.engines.grounded };
  }

  list(): ModelInfo[] {
    const hasLlm = this.engines.llm !== undefined;
    return [
      {
        id: 'mind-reasoner-standard',
        description: "Offline and deterministic: answers by retrieving and quoting the person's own statements.",
        engine: 'grounded',
        available: true,
      },
      {
        id: 'mind-reasoner-pro',
        description: hasLlm
          ? "LLM reasoning grounded in the person's retrieved statements."
          : "LLM reasoning grounded in the person's retrieved statements. No LLM is configured: " +
            'requests are served by mind-reasoner-standard.',
        engine: 'llm',
        available: hasLlm,
      },
    ];
  }
}
