/**
 * The language model behind mind-reasoner-pro, through the AI SDK, and one call path for every
 * structured request (llm-request.ts: its texts and the answer's schema): a time limit, bounded retries with backoff
 * (the SDK's maxRetries), and provider failures turned into the API's errors:
 * 502 `llm_error` (the provider answered with an error or an unusable answer),
 * 503 `llm_unavailable` (unreachable, timed out, rate limited).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateObject, NoObjectGeneratedError, RetryError, streamObject, type DeepPartial, type LanguageModel } from 'ai';
import type { z } from 'zod';
import type { LlmSettings } from '../config.ts';
import { llmError, llmUnavailable } from '../kernel/errors.ts';
import { sdkSchema, structuredRequest, type LlmRequest } from './llm-request.ts';

export function languageModel(s: LlmSettings): LanguageModel {
  switch (s.provider) {
    case 'openai':
      // Chat Completions: spoken by OpenAI and by every OpenAI-style gateway.
      return createOpenAI({ apiKey: s.apiKey, baseURL: s.baseUrl }).chat(s.model);
    case 'anthropic':
      return createAnthropic({ apiKey: s.apiKey, baseURL: s.baseUrl })(s.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'llm',
        baseURL: s.baseUrl ?? '',
        apiKey: s.apiKey,
        supportsStructuredOutputs: true,
      }).chatModel(s.model);
  }
}

/** `details.reason` of the llm_error for an answer that does not fit the schema (a typed answer treats it as no_evidence). */
export const UNFIT_ANSWER = 'unfit_answer';

/** The API error for a failed call (see the module comment). */
export function mapLlmFailure(err: unknown): Error {
  const last = RetryError.isInstance(err) ? err.lastError : err;
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    if (status === undefined || status === 408 || status === 429) {
      return llmUnavailable('The language model could not be reached. Try again later.', { status: status ?? null });
    }
    return llmError(`The language model answered with an error (HTTP ${status}).`, { status });
  }
  if (NoObjectGeneratedError.isInstance(last)) {
    return llmError('The language model returned an answer that does not fit the expected structure.', { reason: UNFIT_ANSWER });
  }
  const name = (last as { name?: string } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return llmUnavailable('The language model did not answer in time.');
  return llmUnavailable(`The language model could not be reached: ${(last as Error | null)?.message ?? 'unknown error'}.`);
}

export class LlmClient {
  private readonly model: LanguageModel;

  readonly settings: LlmSettings;
  constructor(settings: LlmSettings) {
    this.settings = settings;
    this.model = languageModel(settings);
  }

  get modelName(): string {
    return `${this.settings.provider}:${this.settings.model}`;
  }

  /**
   * The AI SDK's call for one request (llm-request.ts), the only texts in it the request's own:
   * deterministic, bounded retries, one time limit for all of it.
   */
  private call<T>(request: LlmRequest<T>) {
    return {
      model: this.model,
      schema: sdkSchema(request),
      schemaName: request.name,
      system: request.system,
      prompt: request.prompt,
      temperature: 0,
      maxRetries: this.settings.maxRetries,
      abortSignal: AbortSignal.timeout(this.settings.timeoutMs),
    };
  }

  /** One structured answer validated by `schema`; throws the mapped API error on failure. */
  async object<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string): Promise<T> {
    return this.send(await structuredRequest(schema, system, prompt, name));
  }

  /**
   * The same structured answer, streamed: `onPartial` hears the object as it grows (fields filled
   * in as the provider's tokens arrive); the promise is the whole validated object, or the mapped
   * API error. The time limit covers the whole stream.
   */
  async streamedObject<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string, onPartial: (partial: DeepPartial<T>) => void): Promise<T> {
    return this.sendStreamed(await structuredRequest(schema, system, prompt, name), onPartial);
  }

  /** A request as it is (built by `structuredRequest`, perhaps rewritten by the redacting adapter). */
  async send<T>(request: LlmRequest<T>): Promise<T> {
    try {
      const { object } = await generateObject(this.call(request));
      return object;
    } catch (err) {
      throw mapLlmFailure(err);
    }
  }

  /** A request as it is, streamed (see `streamedObject`); the partials restored as the reply is. */
  async sendStreamed<T>(request: LlmRequest<T>, onPartial: (partial: DeepPartial<T>) => void): Promise<T> {
    try {
      const result = streamObject({
        ...this.call(request),
        onError: () => {}, // the failure is the `object` promise's, mapped below
      });
      for await (const partial of result.partialObjectStream) onPartial(request.restore(partial) as DeepPartial<T>);
      return (await result.object) as T;
    } catch (err) {
      throw mapLlmFailure(err);
    }
  }
}
