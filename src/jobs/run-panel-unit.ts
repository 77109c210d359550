import { z } from 'zod';
import type { PanelRunner } from '../domain/panel-runner.ts';
import type { JobHandler } from './worker.ts';

const Payload = z.object({ panelId: z.string(), unitId: z.string() });

/**
 * Answers one unit of a panel (one mind, every question). A redelivered job finds the unit done
 * and does nothing; a unit whose job used up its attempts is failed with the last error.
 */
export class RunPanelUnitJob implements JobHandler {
  private readonly runner: PanelRunner;
  constructor(runner: PanelRunner) {
    this.runner = runner;
  }

  async run(payload: unknown): Promise<void> {
    await this.runner.runUnit(Payload.parse(payload).unitId);
  }

  async exhausted(payload: unknown, error: string): Promise<void> {
    await this.runner.failUnit(Payload.parse(payload).unitId, `The mind could not be answered after every retry: ${error}`);
  }
}
