/**
 * The one place prompts pass on their way to the LLM provider with a mind's redaction on
 * (outbound or stored): the system text and every line of the prompt are redacted as one batch
 * (so a third party has one number throughout) before the call, and what was replaced is counted.
 * Engines take an `LlmPort`: the plain client, or this wrapper of it for a mind whose redaction is on.
 */
import type { DeepPartial } from 'ai';
import type { z } from 'zod';
import type { LlmSettings } from '../config.ts';
import { addCounts, type RedactionCounts } from '../privacy/kinds.ts';
import type { Redacted } from '../privacy/redactor.ts';
import type { LlmClient } from './llm-model.ts';

/** A mind's redaction of texts (privacy/redactor.ts `Redactor`). */
export interface TextRedaction {
  redact(texts: readonly string[]): Promise<Redacted>;
}

/** What engines call: structured answers from the provider. */
export interface LlmPort {
  readonly settings: LlmSettings;
  readonly modelName: string;
  object<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string): Promise<T>;
  streamedObject<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string, onPartial: (partial: DeepPartial<T>) => void): Promise<T>;
}

export class RedactingLlm implements LlmPort {
  /** What was replaced in every prompt sent through this wrapper so far. */
  readonly counts: RedactionCounts = {};
  private readonly llm: LlmClient;
  private readonly redaction: TextRedaction;
  constructor(llm: LlmClient, redaction: TextRedaction) {
    this.llm = llm;
    this.redaction = redaction;
  }

  get settings(): LlmSettings {
    return this.llm.settings;
  }

  get modelName(): string {
    return this.llm.modelName;
  }

  async object<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string): Promise<T> {
    const [s, p] = await this.redact(system, prompt);
    return this.llm.object(schema, s, p, name);
  }

  async streamedObject<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string, onPartial: (partial: DeepPartial<T>) => void): Promise<T> {
    const [s, p] = await this.redact(system, prompt);
    return this.llm.streamedObject(schema, s, p, name, onPartial);
  }

  private async redact(system: string, prompt: string): Promise<[string, string]> {
    const lines = prompt.split('\n');
    const { texts, counts } = await this.redaction.redact([system, ...lines]);
    addCounts(this.counts, counts);
    return [texts[0] ?? '', texts.slice(1).join('\n')];
  }
}

/** The client for one mind's calls: redacting when the mind's redaction is on. */
export function llmFor(llm: LlmClient, redaction: TextRedaction | undefined): LlmClient | RedactingLlm {
  return redaction ? new RedactingLlm(llm, redaction) : llm;
}
