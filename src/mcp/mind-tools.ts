/**
 * The hosted MCP server's two read tools over minds (HOSTED-API.md §5.2): `get_all_minds` and
 * `search_minds`, answering what `GET /minds` and `GET /minds/search` answer.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What these tools need of a backend (MindsimBackend extends it). */
export interface MindReadBackend {
  /** `{minds: [...]}`, newest first, as `GET /minds` (optionally those carrying any of the tags). */
  allMinds(opts: { limit: number; tags?: string[] }): Promise<{ minds: unknown[] }>;
  /** `{minds: [...], count}`, as `GET /minds/search?query=`. */
  searchMinds(query: string, limit: number): Promise<{ minds: unknown[]; count: number }>;
}

export const MIND_TOOL_DESCRIPTIONS = {
  get_all_minds:
    'All minds of this account, newest first, as {minds: [...]}: each with id, name, slug, email, tags, tokenCount and its digital ' +
    'twins with their snapshots (mindAssessments). Use it to find a mind id; `tags` keeps the minds carrying any of those tag names.',
  search_minds:
    'Find minds whose name, email or a tag name contains `query` (partial, case-insensitive). Returns {minds: [...], count} ' +
    '(count: all matches). Use it before create_mind to avoid a duplicate.',
} as const;

/** Registers get_all_minds and search_minds; `run` turns a call into a tool result (errors included). */
export function registerMindTools(server: McpServer, backend: MindReadBackend, run: (fn: () => Promise<unknown>) => Promise<CallToolResult>): void {
  server.registerTool(
    'get_all_minds',
    {
      description: MIND_TOOL_DESCRIPTIONS.get_all_minds,
      inputSchema: {
        limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 50)'),
        tags: z.array(z.string().min(1).max(100)).max(50).optional().describe('Only minds carrying any of these tag names'),
      },
    },
    ({ limit, tags }) => run(() => backend.allMinds({ limit: limit ?? 50, tags })),
  );
  server.registerTool(
    'search_minds',
    {
      description: MIND_TOOL_DESCRIPTIONS.search_minds,
      inputSchema: {
        query: z.string().trim().min(1).max(200).describe('Text to find in the name, email or tag names'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many minds (default 50)'),
      },
    },
    ({ query, limit }) => run(() => backend.searchMinds(query, limit ?? 50)),
  );
}
