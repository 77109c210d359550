import type { ErrorBody } from './types.ts';

/** A non-2xx answer of the API: `{error, message, code, details, requestId}` plus the `X-Request-Id` header. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | null;
  /** The error body as the service sent it: parsed JSON, or its text when it was not JSON. */
  readonly body: unknown;

  constructor(status: number, code: string, message: string, requestId: string | null, details?: Record<string, unknown>, body?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.details = details;
    this.body = body;
  }

  /** Reads an error response; bodies that are not the API's error shape keep their text as the message. */
  static async from(res: Response): Promise<ApiError> {
    const requestId = res.headers.get('x-request-id');
    const text = await res.text().catch(() => '');
    let parsed: unknown = text;
    try {
      const body = JSON.parse(text) as Partial<ErrorBody>;
      parsed = body;
      if (typeof body.code === 'string' && typeof body.message === 'string') {
        return new ApiError(res.status, body.code, body.message, body.requestId ?? requestId, body.details, body);
      }
      // The nested shape of servers before the hosted one was adopted: {error: {code, message, details}}.
      const legacy = (body as { error?: unknown }).error as { code?: unknown; message?: unknown; details?: Record<string, unknown> } | undefined;
      if (legacy && typeof legacy === 'object' && typeof legacy.code === 'string') {
        return new ApiError(res.status, legacy.code, String(legacy.message ?? ''), requestId, legacy.details, body);
      }
    } catch {
      /* not JSON */
    }
    const message = text.trim().slice(0, 500) || `HTTP ${res.status} ${res.statusText}`.trim();
    return new ApiError(res.status, `http_${res.status}`, message, requestId, undefined, parsed);
  }
}

/** `snapshots.wait` ran out of time before the snapshot ended. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  readonly lastStatus: string | undefined;
  constructor(message: string, lastStatus?: string) {
    super(message);
    this.lastStatus = lastStatus;
  }
}
