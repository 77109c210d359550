import { STATUS_CODES } from 'node:http';

/**
 * The error body of the API, flat as the hosted service documents it: `error` is the HTTP status
 * text, `code` the machine code in upper snake case (every 401 is `AUTH_FAILED`, its finer reason
 * in `details.reason`), `requestId` the request's id (also in `X-Request-Id`). The API and the
 * dashboard's JSON answers both write it.
 */
export function errorBody(status: number, code: string, message: string, details?: Record<string, unknown>, requestId?: string) {
  const unauthorized = status === 401;
  const detail = unauthorized ? { reason: code, ...details } : details;
  return {
    error: STATUS_CODES[status] ?? 'Error',
    message,
    code: unauthorized ? 'AUTH_FAILED' : code.toUpperCase(),
    ...(detail ? { details: detail } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/** What a 500 says: never the cause, which is in the log under the request id. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. The request id identifies it in the logs.';
