/** A small HTTP client for tests and benchmarks: raw status, headers and JSON, for what the typed SDK cannot express. */
import { waitUntil } from './wait.ts';
export interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A tiny client for tests: JSON in, parsed JSON out, status and headers kept. */
export function client(api: string, key: string) {
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const h: Record<string, string> = { authorization: `Bearer ${key}`, ...headers };
    let payload: BodyInit | undefined;
    if (body instanceof FormData || typeof body === 'string') payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${api}${p}`, { method, headers: h, body: payload });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, headers: res.headers, body: json };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown, headers?: Record<string, string>) => call('POST', p, body, headers),
    put: (p: string, body?: unknown) => call('PUT', p, body),
    patch: (p: string, body?: unknown) => call('PATCH', p, body),
    del: (p: string) => call('DELETE', p),
    call,
  };
}

export type Client = ReturnType<typeof client>;

/** The snapshot's status once it is final (completed or failed). */
export async function waitForSnapshot(c: Client, mindId: string, id: string, timeoutMs = 30_000) {
  return waitUntil(
    async () => {
      const r = await c.get(`/minds/${mindId}/snapshots/${id}/status`);
      return r.body?.status === 'completed' || r.body?.status === 'failed' ? r.body : null;
    },
    { what: `snapshot ${id} final`, timeoutMs },
  );
}

/** Multipart form with the transcript as `file`. */
export function fileForm(bytes: Buffer | string, fileName: string, type = 'application/octet-stream', fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), fileName);
  return form;
}

/**
 * Sends a body with node:http and resolves on the response, even when the server answers before
 * reading the whole body (as it does for 413): the client then sees the status, as curl does.
 */
export async function rawRequest(
  url: string,
  method: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'content-length': String(body.length), ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (err) => setTimeout(() => reject(err), 200));
    req.end(body);
  });
}
