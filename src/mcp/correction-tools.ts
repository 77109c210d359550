/**
 * The MCP tools of corrections (issue 32): `correct_answer` writes what the person would really say
 * (to a simulation's latest question, or to a scenario of a mind's), and the mind answers from it
 * from then on; `list_corrections` lists a mind's corrections. Registered by createMcpServer (tools.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface CorrectionInput {
  answer: string;
  note?: string;
}

/** What the correction tools need of a backend (part of MindsimBackend). */
export interface CorrectionBackend {
  /** `POST /simulations/{simulationId}/corrections`: `{correction}`. */
  correctSimulation(simulationId: string, input: CorrectionInput): Promise<unknown>;
  /** `POST /minds/{mindId}/corrections`: `{correction}`. */
  createCorrection(mindId: string, input: CorrectionInput & { scenario: string }): Promise<unknown>;
  /** The first page of `GET /minds/{mindId}/corrections`: `{corrections, count}`. */
  listCorrections(mindId: string, limit: number): Promise<unknown>;
}

export const CORRECTION_TOOL_DESCRIPTIONS = {
  correct_answer:
    "Correct a mind's answer with what the person would really say. Give simulationId (a conversationId from simulate: its latest " +
    'question is the scenario corrected), or mindId with the scenario. From then on, whenever the mind is asked that scenario or a ' +
    'paraphrase of it, the correction leads its answer and evidence (source "correction"), over what the transcript says; ' +
    'unrelated questions are answered as before. Use it when the person (or someone who knows them) says an answer is not what ' +
    'they would say. Returns {correction}.',
  list_corrections: "List a mind's corrections, newest first, with `count`, the total: each scenario and what the person would really say.",
} as const;

const id = (what: string) => z.string().uuid().describe(what);
const text = z.string().trim().min(1).max(20_000);

export function registerCorrectionTools(server: McpServer, backend: CorrectionBackend, run: (fn: () => Promise<unknown>) => Promise<CallToolResult>): void {
  server.registerTool(
    'correct_answer',
    {
      description: CORRECTION_TOOL_DESCRIPTIONS.correct_answer,
      inputSchema: {
        answer: text.describe('What the person would really say, in their words'),
        simulationId: id("The simulation whose latest answer is corrected (simulate's conversationId)").optional(),
        mindId: id('The mind corrected, with `scenario` (instead of simulationId)').optional(),
        scenario: text.optional().describe('The scenario or question corrected, with `mindId`'),
        note: z.string().trim().max(2000).optional().describe('Optional: why, or who said so'),
      },
    },
    ({ answer, simulationId, mindId, scenario, note }) =>
      run(() => {
        const input = { answer, ...(note ? { note } : {}) };
        if (simulationId && !mindId && !scenario) return backend.correctSimulation(simulationId, input);
        if (!simulationId && mindId && scenario) return backend.createCorrection(mindId, { ...input, scenario });
        throw new Error('Give either simulationId, or mindId with scenario.');
      }),
  );
  server.registerTool(
    'list_corrections',
    {
      description: CORRECTION_TOOL_DESCRIPTIONS.list_corrections,
      inputSchema: {
        mindId: id('The mind'),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 50)'),
      },
    },
    ({ mindId, limit }) => run(() => backend.listCorrections(mindId, limit ?? 50)),
  );
}
