import { z } from 'zod';
import type { SimulationService } from '../domain/simulation.ts';
import type { JobHandler } from './worker.ts';

const Payload = z.object({ simulationId: z.string() });

/**
 * Answers a background simulation turn (`runInBackground`): the service moves it queued → running
 * → completed | failed and stores the answer. A redelivered job finds the turn final and does
 * nothing; a turn whose job used up its attempts is failed with the last error.
 */
export class RunSimulationJob implements JobHandler {
  private readonly simulation: SimulationService;
  constructor(simulation: SimulationService) {
    this.simulation = simulation;
  }

  async run(payload: unknown): Promise<void> {
    await this.simulation.runQueued(Payload.parse(payload).simulationId);
  }

  async exhausted(payload: unknown, error: string): Promise<void> {
    await this.simulation.failQueued(Payload.parse(payload).simulationId, 'simulation_failed', `The simulation failed after every retry: ${error}`);
  }
}
