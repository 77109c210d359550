/** The second stage's parameter file (src/memory/params/rerank.json): its weights rounded, and where and how they were fitted. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RerankModel } from '../src/memory/search/rerank.ts';
import type { RerankChoice } from './rerank-grid.ts';

/** Five decimals: the validation right@3 of the rounded model equals the unrounded one's (checked by `npm run train`'s log). */
const roundAll = (xs: readonly number[], d = 5): number[] => xs.map((x) => Math.round(x * 10 ** d) / 10 ** d);

export function roundModel(m: RerankModel): RerankModel {
  return {
    ...m,
    mean: roundAll(m.mean, 6),
    std: roundAll(m.std, 6),
    linear: roundAll(m.linear),
    hidden: roundAll(m.hidden),
    hiddenBias: roundAll(m.hiddenBias),
    out: roundAll(m.out),
    u: roundAll(m.u),
    v: roundAll(m.v),
  };
}

export function rerankProvenance(choice: RerankChoice, seed: number): Record<string, unknown> {
  return {
    command: 'npm run train',
    seed,
    fitted: `train people's questions whose right answer is in the first stage's shortlist (${choice.trainQuestions})`,
    chosen: { setting: choice.setting, epoch: choice.epoch, validationRight3: Math.round(choice.right3 * 10_000) / 10_000 },
    validationRight3BySetting: choice.bySetting,
    ablation: { withoutBilinear: choice.withoutBilinear ? roundModel(choice.withoutBilinear) : null },
    curves: choice.curves,
  };
}

/** rerank.json beside ranking.json (the committed pair), else `<out>.rerank.json`. */
export function rerankFileBeside(out: URL | string): string {
  const file = typeof out === 'string' ? out : fileURLToPath(out);
  return path.basename(file) === 'ranking.json' ? path.join(path.dirname(file), 'rerank.json') : `${file}.rerank.json`;
}
