/**
 * Tool results as the hosted MCP server returns them: the API's JSON pretty-printed as the text
 * content; a failure `isError: true` with `Error: API Error (<status>): <error body JSON>` when the
 * API answered an error, `Error: <message>` otherwise.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The transport the tools are served over: stdio (`mindsim mcp`, on the caller's machine) or HTTP (`/mcp`, on the service). */
export type McpTransportKind = 'http' | 'stdio';

/** An error answer of the API: its HTTP status and its (flat) error body. Each transport's backend turns its errors into these. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`API Error (${status})`);
    this.status = status;
    this.body = body;
  }
}

export function result(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

export function failure(err: unknown): CallToolResult {
  const text =
    err instanceof ApiFailure
      ? `Error: API Error (${err.status}): ${JSON.stringify(err.body)}`
      : `Error: ${err instanceof Error ? err.message : String(err)}`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** Runs a tool: its value as the result, any error as a failure. */
export const run = async (fn: () => Promise<unknown>): Promise<CallToolResult> => {
  try {
    return result(await fn());
  } catch (err) {
    return failure(err);
  }
};

/**
 * The backend with every method's rejection passed through `translate` (a transport's own API
 * errors → ApiFailure), whatever methods it has: one place per transport, not one per method.
 */
export function translatingErrors<T extends object>(backend: T, translate: (err: unknown) => unknown): T {
  return new Proxy(backend, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const out: unknown = value.apply(target, args);
          return out instanceof Promise ? out.catch((err: unknown) => Promise.reject(translate(err))) : out;
        } catch (err) {
          throw translate(err);
        }
      };
    },
  });
}
