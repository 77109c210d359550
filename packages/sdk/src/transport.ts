import { ApiError } from './errors.ts';

export interface ClientOptions {
  /** The service's address, e.g. `http://127.0.0.1:8080` (a trailing `/api/public/v1` is accepted too). */
  baseUrl: string;
  apiKey: string;
  /** Retries of idempotent requests (GET, PUT, DELETE) after 429, 5xx or a network error. Default 3. */
  maxRetries?: number;
  /** First backoff delay when the answer has no `Retry-After`; doubles each attempt. Default 500 ms. */
  retryBaseMs?: number;
  /** Longest wait between two attempts, `Retry-After` included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** A `fetch` implementation; the global one by default. */
  fetch?: typeof fetch;
  /** Extra headers on every API request. */
  headers?: Record<string, string>;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path under the service root (`/api/public/v1/…`) or an absolute URL (Link headers, signed URLs). */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** The body, or a function making a fresh one for each attempt. */
  body?: BodyInit | (() => BodyInit);
  headers?: Record<string, string>;
  /** Send the API key (not to signed URLs). Default true. */
  auth?: boolean;
  /** Whether the body can be sent again; streams cannot. Default true. */
  replayable?: boolean;
  signal?: AbortSignal;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
export const API_PREFIX = '/api/public/v1';

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** HTTP with the API key, typed errors and retries of idempotent requests. */
export class Transport {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    if (!opts.baseUrl) throw new TypeError('baseUrl is required');
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '').replace(/\/api\/public\/v1$/, '');
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  url(path: string, query?: RequestSpec['query']): string {
    const url = new URL(/^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Sends the request and answers the successful response; non-2xx answers become `ApiError`. */
  async send(spec: RequestSpec): Promise<Response> {
    const headers: Record<string, string> = { ...(spec.auth === false ? {} : this.opts.headers), ...spec.headers };
    if (spec.auth !== false) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let makeBody = typeof spec.body === 'function' ? spec.body : () => spec.body as BodyInit | undefined;
    if (spec.json !== undefined) {
      const text = JSON.stringify(spec.json);
      makeBody = () => text;
      headers['content-type'] = 'application/json';
    }
    const retries = IDEMPOTENT.has(spec.method) && spec.replayable !== false ? (this.opts.maxRetries ?? 3) : 0;
    const url = this.url(spec.path, spec.query);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        const body = makeBody();
        const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers, body, signal: spec.signal };
        if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) init.duplex = 'half'; // required for stream bodies
        res = await this.fetchImpl(url, init);
      } catch (err) {
        if (attempt >= retries || spec.signal?.aborted) throw err;
        await sleep(this.backoff(attempt), spec.signal);
        continue;
      }
      if (res.ok) return res;
      if (attempt < retries && (res.status === 429 || res.status >= 500)) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? this.backoff(attempt);
        await res.body?.cancel().catch(() => undefined);
        await sleep(Math.min(wait, this.opts.maxRetryDelayMs ?? 30_000), spec.signal);
        continue;
      }
      throw await ApiError.from(res);
    }
  }

  async json<T>(spec: RequestSpec): Promise<T> {
    const res = await this.send(spec);
    return (await res.json()) as T;
  }

  private backoff(attempt: number): number {
    const base = (this.opts.retryBaseMs ?? 500) * 2 ** attempt;
    return Math.min(base / 2 + Math.random() * (base / 2), this.opts.maxRetryDelayMs ?? 30_000);
  }
}

/** The `rel="next"` target of a `Link` header, if any. */
export function nextLink(header: string | null): string | undefined {
  for (const part of header?.split(',') ?? []) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part.trim());
    if (m?.[1]) return m[1];
  }
  return undefined;
}
