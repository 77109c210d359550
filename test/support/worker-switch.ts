import { startService, type Service } from '../../testkit/service.ts';

export interface SwitchedService extends Service {
  /** Stops claiming jobs (the jobs in hand finish): panels created meanwhile stay queued. */
  pauseWorker(): Promise<void>;
  resumeWorker(): void;
}

/**
 * The in-process service with a worker the test can pause: what a client does while a panel is
 * still queued (Ctrl-C, cancel, a bounded wait) is then certain, not a race with a fast engine.
 */
export async function startSwitchedService(extraEnv: Record<string, string> = {}): Promise<SwitchedService> {
  const srv = await startService({ ...extraEnv, RUN_WORKER: 'false' });
  const worker = srv.ctx.createWorker();
  worker.start();
  return {
    ...srv,
    pauseWorker: () => worker.stop(),
    resumeWorker: () => worker.start(),
    close: async () => {
      await worker.stop(srv.ctx.config.shutdownGraceMs);
      await srv.close();
    },
  };
}
