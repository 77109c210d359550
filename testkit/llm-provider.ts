/**
 * The tests' LLM provider: one local HTTP server speaking the OpenAI chat-completions protocol
 * (POST /v1/chat/completions, plain or streamed as server-sent chunks), as OpenAI, an OpenAI-style
 * gateway or Ollama answer it, and Anthropic's messages protocol (POST /v1/messages) for the
 * provider that sends the answer's schema as a tool. It records every request, body as received,
 * and answers each as the test's `reply` says: a JSON object as the completion's content (the
 * structured answer), an HTTP error, or nothing at all (a provider that hangs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmSettings } from '../src/config.ts';

/** A JSON schema as the provider receives it (only what tests read of it). */
export interface SentSchema {
  type?: string | string[];
  properties?: Record<string, SentSchema>;
  required?: string[];
  items?: SentSchema;
  enum?: unknown[];
  anyOf?: SentSchema[];
  [key: string]: unknown;
}

export interface ProviderRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body as received (JSON-escaped texts included): what a leak check reads. */
  raw: string;
  body: Record<string, unknown>;
  protocol: 'openai' | 'anthropic';
  /** The answer's schema name (`response_format.json_schema.name`), '' when none (Anthropic's requests carry none). */
  schemaName: string;
  /** Anthropic: the tool the answer's schema was sent as (the AI SDK's `json`), if it was. */
  tool?: string;
  /** The answer's JSON schema (OpenAI's response_format, Anthropic's tool input or output format). */
  schema: SentSchema | undefined;
  /** The texts of the system messages, then of the user messages, each joined by newlines. */
  system: string;
  user: string;
  stream: boolean;
}

/** How the stand-in answers one request. */
export type ProviderAnswer =
  /**
   * The structured answer: `JSON.stringify(json)` as the completion's content (streamed in chunks
   * when asked; a tool call's input for Anthropic's tool), sent once `heldUntil` settles (the test
   * releases it: requests that overlap do so whatever the machine's speed) or after `delayMs`.
   */
  | { json: unknown; delayMs?: number; heldUntil?: Promise<unknown> }
  /** An error answer (OpenAI's error body); `retry-after-ms: 0` so that a retry is not delayed. */
  | { status: number; message?: string }
  /** No answer at all: the client's time limit ends the request. */
  | 'hang';

export type Reply = (request: ProviderRequest) => ProviderAnswer;

export interface LlmStandIn {
  readonly port: number;
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  /** Every request received, oldest first. */
  readonly requests: ProviderRequest[];
  /** How the next requests are answered (replaceable at any time). */
  reply: Reply;
  /** The service's environment for it: the OpenAI-compatible provider at this address, no retries unless `extra` says. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Client settings for it (an in-process `LlmClient`). */
  settings(extra?: Partial<LlmSettings>): LlmSettings;
  /** Stops answering: open connections are dropped, new ones refused. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

/** A reply by the schema's name (`simulation`, `reflections`…); `otherwise` for the rest. */
export const replyByName =
  (answers: Record<string, unknown>, otherwise: unknown = {}): Reply =>
  (r) => ({ json: r.schemaName in answers ? answers[r.schemaName] : otherwise });

type Message = { role?: string; content?: unknown };
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
      : '';
const textsBy = (messages: Message[], role: string) => messages.filter((m) => m.role === role).map((m) => textOf(m.content)).join('\n');

function parse(req: http.IncomingMessage, raw: string): ProviderRequest {
  const body = JSON.parse(raw) as Record<string, unknown>;
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  const common = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body, stream: body.stream === true, user: textsBy(messages, 'user') };
  if (req.url?.endsWith('/messages')) {
    const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: string; input_schema?: SentSchema }>) : [];
    const format = body.output_format as { schema?: SentSchema } | undefined;
    const tool = tools[0]?.name;
    return { ...common, protocol: 'anthropic', schemaName: '', ...(tool ? { tool } : {}), schema: tools[0]?.input_schema ?? format?.schema, system: textOf(body.system) };
  }
  const format = (body.response_format as { json_schema?: { name?: string; schema?: SentSchema } } | undefined)?.json_schema;
  return { ...common, protocol: 'openai', schemaName: format?.name ?? '', schema: format?.schema, system: textsBy(messages, 'system') };
}

const completion = (model: unknown, content: string) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: typeof model === 'string' ? model : 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The content as chat-completion chunks of 12 characters, 2 ms apart. */
async function stream(res: http.ServerResponse, content: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ role: 'assistant', content: '' }));
  for (let i = 0; i < content.length; i += 12) {
    res.write(chunk({ content: content.slice(i, i + 12) }));
    await new Promise((r) => setTimeout(r, 2));
  }
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
}

/** Anthropic's answer: the tool's call with the object as its input, or the object as text (an output format). */
function anthropicMessage(r: ProviderRequest, json: unknown) {
  const content = r.tool ? [{ type: 'tool_use', id: 'toolu_test', name: r.tool, input: json }] : [{ type: 'text', text: JSON.stringify(json) }];
  return { id: 'msg_test', type: 'message', role: 'assistant', model: r.body.model, content, stop_reason: r.tool ? 'tool_use' : 'end_turn', usage: { input_tokens: 10, output_tokens: 10 } };
}

function answer(r: ProviderRequest, res: http.ServerResponse, a: ProviderAnswer): void {
  if (a === 'hang') return;
  if ('status' in a) {
    res.writeHead(a.status, { 'content-type': 'application/json', 'retry-after-ms': '0' }).end(JSON.stringify({ error: { message: a.message ?? 'boom', type: 'server_error' } }));
    return;
  }
  const send = () => {
    if (r.protocol === 'anthropic') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(anthropicMessage(r, a.json)));
    const content = JSON.stringify(a.json);
    if (r.stream) return void stream(res, content);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(r.body.model, content)));
  };
  if (a.heldUntil) void a.heldUntil.then(send, send);
  else if (a.delayMs) setTimeout(send, a.delayMs);
  else send();
}

/** Starts the stand-in on a free loopback port (or `port`). */
export async function startLlmStandIn(reply: Reply = () => ({ json: {} }), port = 0): Promise<LlmStandIn> {
  const requests: ProviderRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !/^\/v1\/(chat\/completions|messages)$/.test(req.url ?? '')) return void res.writeHead(404).end();
      const r = parse(req, raw);
      requests.push(r);
      answer(r, res, standIn.reply(r));
    });
  });
  const listen = (at: number) => new Promise<number>((resolve) => server.listen(at, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const bound = await listen(port);
  const baseUrl = `http://127.0.0.1:${bound}/v1`;
  const standIn: LlmStandIn = {
    port: bound,
    baseUrl,
    requests,
    reply,
    env: (extra = {}) => ({ LLM_PROVIDER: 'openai-compatible', LLM_BASE_URL: baseUrl, LLM_API_KEY: 'test-key', LLM_MODEL: 'test-model', LLM_MAX_RETRIES: '0', ...extra }),
    settings: (extra = {}) => ({ provider: 'openai-compatible', baseUrl, apiKey: 'test-key', model: 'test-model', timeoutMs: 5000, maxRetries: 0, contextWords: 1000, ...extra }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    reopen: async () => {
      await listen(bound);
    },
  };
  return standIn;
}
