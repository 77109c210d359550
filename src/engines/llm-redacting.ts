/**
 * The one place requests pass on their way to the LLM provider with a mind's redaction on
 * (outbound or stored): every text the provider would receive (llm-request.ts: the system text,
 * every line of the prompt, every worded string of the answer's schema: a question's options in
 * its enum, descriptions) is redacted as one batch (so a third party has one number throughout)
 * before the call, what was replaced is counted, and the reply's allowed values are mapped back to
 * the caller's. Engines take an `LlmPort`: the plain client, or this wrapper of it for a mind
 * whose redaction is on.
 */
import type { DeepPartial } from 'ai';
import type { z } from 'zod';
import type { LlmSettings } from '../config.ts';
import { addCounts, type RedactionCounts } from '../privacy/kinds.ts';
import type { Redacted } from '../privacy/redactor.ts';
import type { LlmClient } from './llm-model.ts';
import { restoreEnums, rewriteSchema, schemaTexts, structuredRequest, type LlmRequest } from './llm-request.ts';

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
  /** What was replaced in every request sent through this wrapper so far. */
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
    return this.llm.send(await this.redact(await structuredRequest(schema, system, prompt, name)));
  }

  async streamedObject<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string, onPartial: (partial: DeepPartial<T>) => void): Promise<T> {
    return this.llm.sendStreamed(await this.redact(await structuredRequest(schema, system, prompt, name)), onPartial);
  }

  /**
   * Every text of the request, redacted as one batch: the system text, each line of the prompt and
   * each worded string of the schema (an option in an enum is numbered as in the prompt). The reply's
   * allowed values are mapped back (a redacted option to the option the caller gave).
   */
  async redact<T>(request: LlmRequest<T>): Promise<LlmRequest<T>> {
    const lines = request.prompt.split('\n');
    const inSchema = schemaTexts(request.schema);
    const { texts, counts } = await this.redaction.redact([request.system, ...lines, ...inSchema]);
    addCounts(this.counts, counts);
    const fromSchema = texts.slice(1 + lines.length);
    let at = 0;
    const { schema, enums } = rewriteSchema(request.schema, () => fromSchema[at++] ?? '');
    return {
      ...request,
      system: texts[0] ?? '',
      prompt: texts.slice(1, 1 + lines.length).join('\n'),
      schema,
      restore: (reply) => request.restore(restoreEnums(schema, enums, reply)),
    };
  }
}

/** The client for one mind's calls: redacting when the mind's redaction is on. */
export function llmFor(llm: LlmClient, redaction: TextRedaction | undefined): LlmClient | RedactingLlm {
  return redaction ? new RedactingLlm(llm, redaction) : llm;
}
