import type { AnalysisResult, AnalysisTask } from '../../src/jobs/transcript-analysis.ts';

/**
 * A stand-in for the transcript analysis that misbehaves on demand, to test the pool's limits:
 * mindName "spin" never returns, "hog" allocates until the heap limit, anything else answers at once
 * (with a failure code of its own, so it needs no real analysis).
 */
export default function analyse(task: AnalysisTask): AnalysisResult {
  if (task.mindName === 'spin') {
    for (;;) {
      /* a parser stuck in a loop */
    }
  }
  if (task.mindName === 'hog') {
    const kept: string[][] = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${kept.length}`));
  }
  return { ok: false, code: 'answered', message: 'The stand-in answered at once.' };
}
