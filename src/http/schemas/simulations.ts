/** The simulation history (`/simulations`) and the background answer of `POST /simulate`. */
import { z } from 'zod';
import { SIMULATION_STATES } from '../../domain/conversation.ts';
import { Evidence } from '../schemas.ts';

const Id = z.uuid();
const Timestamp = z.string().describe('ISO 8601 timestamp in UTC, ending in Z');

/** `POST /simulate` with `runInBackground: true`: answered at once (200, as clients test for). */
export const QueuedSimulation = z
  .object({
    simulationId: Id,
    conversationId: Id.describe('The same id'),
    status: z.literal('queued'),
    message: z.literal('Simulation queued'),
  })
  .meta({ id: 'QueuedSimulation' });

export const Simulation = z
  .object({
    id: Id,
    accountId: Id,
    mindId: Id,
    digitalTwinId: Id.nullable(),
    mindAssessmentId: Id.nullable().describe('The latest completed snapshot the last answer drew on; null until a background turn ran'),
    title: z.string().describe('The first message, on one line, cut near 80 characters'),
    model: z.string().describe('The model of the latest turn'),
    status: z.enum(SIMULATION_STATES).describe('queued or running while a background turn waits or runs; completed or failed after it'),
    error: z.object({ code: z.string(), message: z.string() }).nullable().describe('Why the latest turn failed'),
    messageCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Simulation' });

export const SimulationMessage = z
  .object({
    id: Id,
    role: z.enum(['user', 'assistant']),
    content: z.object({
      text: z.string().describe("The message to the person, or the answer's `message`"),
      analysis: z.object({ thinking: z.string(), feeling: z.string(), saying: z.string(), acting: z.string() }).optional(),
      confidence: z.number().min(0).max(1).optional(),
      evidence: z.array(Evidence).optional(),
    }),
    createdAt: Timestamp,
  })
  .meta({ id: 'SimulationMessage' });

export const SimulationParams = z.object({ simulationId: Id });

export const SimulationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  mindId: Id.optional().describe("Only this mind's simulations"),
});

export const SimulationList = z.object({
  simulations: z.array(Simulation).describe('Newest first'),
  count: z.number().int().describe('How many simulations match in all'),
});

export const SimulationDetail = z.object({
  simulation: Simulation,
  messages: z.array(SimulationMessage).describe('Oldest first'),
});

export const SimulationDeleted = z.object({
  message: z.literal('Simulation deleted successfully'),
  simulationId: Id,
});
