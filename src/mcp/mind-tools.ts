/**
 * The hosted MCP server's two read tools over minds (HOSTED-API.md §5.2): `get_all_minds` and
 * `search_minds`, answering what `GET /minds` and `GET /minds/search` answer; and `set_consent`
 * (issue 25), what `PUT /minds/{mindId}` with a consent does: record it, clear it, or withdraw it.
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
  /** `PUT /minds/{mindId}` with `{consent}`: `{success, mind}`, or for a withdrawal `{success, mindId, consent, erasedSnapshots}`. */
  setConsent(mindId: string, consent: ConsentToolInput): Promise<unknown>;
}

/** The consent a tool call sets (checked again by the service: granted needs subject, obtainedAt, method, scope). */
export interface ConsentToolInput {
  status: 'granted' | 'unknown' | 'withdrawn';
  subject?: string | undefined;
  obtainedAt?: string | undefined;
  method?: 'written' | 'verbal' | 'contract' | 'public-record' | undefined;
  scope?: Array<'simulate' | 'panels' | 'llm'> | undefined;
  expiresAt?: string | null | undefined;
  evidenceArtifactId?: string | null | undefined;
}

export const MIND_TOOL_DESCRIPTIONS = {
  get_all_minds:
    'All minds of this account, newest first, as {minds: [...]}: each with id, name, slug, email, tags, tokenCount and its digital ' +
    'twins with their snapshots (mindAssessments). Use it to find a mind id; `tags` keeps the minds carrying any of those tag names.',
  search_minds:
    'Find minds whose name, email or a tag name contains `query` (partial, case-insensitive). Returns {minds: [...], count} ' +
    '(count: all matches). Use it before create_mind to avoid a duplicate.',
  set_consent:
    "Record the consent of the person behind a mind, as their consent form says: status \"granted\" with subject (their name or a pseudonym), " +
    'obtainedAt (YYYY-MM-DD), method (written, verbal, contract, public-record) and scope (the uses consented to: simulate, panels, llm), ' +
    'optionally expiresAt and evidenceArtifactId (an uploaded file of this mind: the signed form); "unknown" clears the record. ' +
    '"withdrawn" means the person withdrew consent: the mind and all their data (transcripts, memories, simulations, panel answers) are ' +
    'erased for good and the mind answers CONSENT_WITHDRAWN afterwards; it needs confirmErase: true. An account that requires consent ' +
    'refuses to simulate, panel or send to a language model a mind whose consent does not cover the use (CONSENT_REQUIRED).',
} as const;

/** Registers get_all_minds and search_minds; `run` turns a call into a tool result (errors included). */
const ConsentScope = z.array(z.enum(['simulate', 'panels', 'llm'])).min(1).max(6);

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
  server.registerTool(
    'set_consent',
    {
      description: MIND_TOOL_DESCRIPTIONS.set_consent,
      inputSchema: {
        mindId: z.string().uuid().describe('The mind'),
        status: z.enum(['granted', 'unknown', 'withdrawn']).describe('granted: record it; unknown: clear it; withdrawn: erase the mind and the person\'s data'),
        subject: z.string().trim().min(1).max(200).optional().describe("With granted: the person's name or a pseudonym"),
        obtainedAt: z.string().max(40).optional().describe('With granted: when consent was given, YYYY-MM-DD or an ISO 8601 date-time'),
        method: z.enum(['written', 'verbal', 'contract', 'public-record']).optional().describe('With granted: how it was obtained'),
        scope: ConsentScope.optional().describe('With granted: the uses consented to'),
        expiresAt: z.string().max(40).nullable().optional().describe('With granted: when it expires (then it counts as none); null: never'),
        evidenceArtifactId: z.string().uuid().nullable().optional().describe('With granted: an uploaded file of this mind recording the consent'),
        confirmErase: z.boolean().optional().describe('Required (true) with withdrawn: the erasure cannot be undone'),
      },
    },
    ({ mindId, confirmErase, ...consent }) =>
      run(async () => {
        if (consent.status === 'withdrawn' && confirmErase !== true) {
          return { erased: false, message: 'Nothing was changed: withdrawing consent erases the mind and all the person\'s data for good. Call set_consent again with confirmErase: true to do it.' };
        }
        return backend.setConsent(mindId, consent.status === 'granted' ? consent : { status: consent.status });
      }),
  );
}
