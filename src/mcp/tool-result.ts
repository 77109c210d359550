/** How every MCP tool answers: the JSON pretty-printed in a text item, or `isError` with the error's code and message. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function result(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

export function failure(err: unknown): CallToolResult {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? `${e.code}: ` : '';
  return { content: [{ type: 'text', text: `Error ${code}${String(e.message ?? err)}` }], isError: true };
}

export const run = async (fn: () => Promise<unknown>): Promise<CallToolResult> => {
  try {
    return result(await fn());
  } catch (err) {
    return failure(err);
  }
};
