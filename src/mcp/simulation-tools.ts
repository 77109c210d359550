/**
 * The MCP tools of simulations: `simulate` (our arguments {mindId, message, model} or the hosted
 * server's {mindId, selectedSimulationModel, scenario: {message}}, plus conversationId to continue
 * a conversation), `list_simulations` and `get_simulation`. Registered by createMcpServer (tools.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { run } from './results.ts';

const MODELS = ['mind-reasoner-pro', 'mind-reasoner-standard'] as const;

export interface SimulateToolRequest {
  mindId: string;
  message: string;
  model?: string;
  conversationId?: string;
}

/** What the simulation tools need of a backend (part of MindsimBackend). */
export interface SimulationBackend {
  simulate(req: SimulateToolRequest): Promise<unknown>;
  listSimulations(q: { mindId?: string; limit: number; offset: number }): Promise<unknown>;
  getSimulation(simulationId: string): Promise<unknown>;
}

export const SIMULATION_TOOL_DESCRIPTIONS = {
  simulate:
    'Simulate how the person behind a mind would think, feel, say and act in a scenario (a question or situation in plain words). ' +
    'Needs at least one completed snapshot (else error snapshot_not_ready: upload a transcript and wait). Returns the answer ' +
    '`message`, the `analysis` (thinking, feeling, saying, acting), a `confidence` from 0 to 1 and the `evidence`: the person\'s ' +
    'own quotes with timestamps, and the `conversationId`. To ask a follow-up in the same conversation (the earlier turns are ' +
    'its context), pass that conversationId. Quote the evidence when you report the result.',
  list_simulations:
    'List the stored simulations (conversations) of this account, newest first, optionally of one mind, with `count`, the total. ' +
    'Use it to find an earlier conversation to continue (its id is the conversationId for simulate).',
  get_simulation: 'A stored simulation with its messages, oldest first: what was asked and what the person answered, with the evidence.',
} as const;

const id = (what: string) => z.string().uuid().describe(what);

/** The scenario of a `simulate` call in either argument shape; an error when it has none, or two different ones. */
export function simulateRequestOf(args: {
  mindId: string;
  message?: string;
  scenario?: { message: string };
  model?: string;
  selectedSimulationModel?: string;
  conversationId?: string;
}): SimulateToolRequest {
  const message = args.message ?? args.scenario?.message;
  if (!message) throw new Error('Give the scenario as `message` (or as `scenario: {message}`).');
  if (args.message && args.scenario && args.message !== args.scenario.message) throw new Error('Give the scenario once: `message` or `scenario.message`.');
  const model = args.model ?? args.selectedSimulationModel;
  return { mindId: args.mindId, message, ...(model ? { model } : {}), ...(args.conversationId ? { conversationId: args.conversationId } : {}) };
}

export function registerSimulationTools(server: McpServer, backend: SimulationBackend): void {
  const scenarioText = z.string().trim().min(1).max(20_000);
  server.registerTool(
    'simulate',
    {
      description: SIMULATION_TOOL_DESCRIPTIONS.simulate,
      inputSchema: {
        mindId: id('The mind, from create_mind or list_minds'),
        message: scenarioText.optional().describe('The scenario or question, in plain words'),
        scenario: z.object({ message: scenarioText }).optional().describe('The same as `message`, as the hosted MindSim MCP server takes it'),
        model: z.enum(MODELS).optional().describe('Simulation model (default mind-reasoner-pro)'),
        selectedSimulationModel: z.enum(MODELS).optional().describe('The same as `model` (the hosted server’s name for it)'),
        conversationId: id('Optional: continue this conversation (the conversationId of an earlier simulate)').optional(),
      },
    },
    (args) => run(() => backend.simulate(simulateRequestOf(args))),
  );
  server.registerTool(
    'list_simulations',
    {
      description: SIMULATION_TOOL_DESCRIPTIONS.list_simulations,
      inputSchema: {
        mindId: id("Optional: only this mind's simulations").optional(),
        limit: z.number().int().min(1).max(200).optional().describe('At most this many (default 50)'),
        offset: z.number().int().min(0).optional().describe('Skip this many (default 0)'),
      },
    },
    ({ mindId, limit, offset }) => run(() => backend.listSimulations({ ...(mindId ? { mindId } : {}), limit: limit ?? 50, offset: offset ?? 0 })),
  );
  server.registerTool(
    'get_simulation',
    { description: SIMULATION_TOOL_DESCRIPTIONS.get_simulation, inputSchema: { simulationId: id('The simulation (a conversationId from simulate, or an id from list_simulations)') } },
    ({ simulationId }) => run(() => backend.getSimulation(simulationId)),
  );
}
