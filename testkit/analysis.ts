/**
 * One analysis pool per test process (and per set of analysis settings), shared by the services
 * it runs in-process (testkit/service.ts, test/support/inproc.ts). Each service of its own would
 * start its own analysis thread, which loads wink-nlp and the sentence encoder and starts a PDF
 * thread: about 1.2 s of CPU, more than most in-process test files take to run, and paid by
 * each of the thirty-odd files of an in-process group. The threads are the service's own
 * (src/jobs/analysis-pool.ts) with the service's settings; idle threads do not keep the process alive.
 */
import { analysisSettings } from '../src/composition.ts';
import type { Config } from '../src/config.ts';
import { AnalysisPool } from '../src/jobs/analysis-pool.ts';

const pools = new Map<string, AnalysisPool>();

/** The analysis port of a test service: the process's pool for its settings, started by its first file. */
export function sharedAnalysis(config: Config): Pick<AnalysisPool, 'analyse' | 'embed' | 'selfCheck'> {
  const settings = analysisSettings(config);
  const key = JSON.stringify(settings);
  const pool = (): AnalysisPool => {
    let p = pools.get(key);
    if (!p) {
      // A thread that ends abnormally is replaced by the pool; the analysis that ran in it fails on its own.
      p = new AnalysisPool(settings, () => undefined);
      pools.set(key, p);
    }
    return p;
  };
  return { analyse: (task) => pool().analyse(task), embed: (texts) => pool().embed(texts), selfCheck: (memories, passages) => pool().selfCheck(memories, passages) };
}
