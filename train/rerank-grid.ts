/**
 * `npm run train`, step 3b: the second stage (search/rerank.ts) fitted on train people's questions
 * for each setting of RERANK_GRID, scored every epoch on validation people by the engine's own
 * ranking code: right answer@3 on their own questions and on the transfer development set
 * (train/transfer.ts: hand-written scenarios set in other industries); the setting and epoch with the
 * best mean of the two are kept (ties: the earlier). Test people are never read.
 */
import type { RankingParams } from '../src/memory/params/params.ts';
import type { RerankModel } from '../src/memory/search/rerank.ts';
import type { QueryExample } from './examples.ts';
import { rankingScores } from './measure.ts';
import { fitRerank, rerankExample, type RerankFitOptions } from './rerank.ts';

/**
 * The settings tried: the shortlist (30 passages: the right answer is among the first stage's first
 * 20 answers for ~93% of questions, EVAL.md), the hidden units, the bilinear term's rank (0: none,
 * the ablation) and the L2 strength; Adam's rate and the batch as TensorFlow.js's examples set them.
 */
export const RERANK_GRID: ReadonlyArray<Pick<RerankFitOptions, 'shortlist' | 'hidden' | 'rank' | 'l2'>> = [
  { shortlist: 30, hidden: 16, rank: 0, l2: 1e-4 },
  { shortlist: 30, hidden: 16, rank: 32, l2: 1e-4 },
  { shortlist: 30, hidden: 16, rank: 64, l2: 1e-4 },
];
const EPOCHS = 8;
const LEARNING_RATE = 1e-3;
const BATCH = 64;
/** Stop a setting after this many epochs without a better validation right@3. */
const PATIENCE = 2;

export interface RerankCurve {
  setting: string;
  epoch: number;
  loss: number;
  validationRight1: number;
  validationRight3: number;
  transferRight3: number;
}

export interface RerankChoice {
  model: RerankModel;
  setting: string;
  epoch: number;
  /** The mean of validation right@3 and transfer right@3 it was chosen by. */
  right3: number;
  curves: RerankCurve[];
  /** The best mean of validation and transfer right@3 of each setting (the ablation on validation people). */
  bySetting: Record<string, number>;
  /** The best model of the settings without the bilinear term (rank 0), for the ablation on test people. */
  withoutBilinear: RerankModel | null;
  trainQuestions: number;
}

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;

export async function chooseRerank(
  trainQueries: readonly QueryExample[],
  validation: readonly QueryExample[],
  transfer: readonly QueryExample[],
  first: Pick<RankingParams, 'ranking'>,
  dimensions: number,
  random: () => number,
  log: (line: string) => void,
  grid = RERANK_GRID,
  epochs = EPOCHS,
): Promise<RerankChoice> {
  let best: RerankChoice | null = null;
  let withoutBilinear: { model: RerankModel; score: number } | null = null;
  const curves: RerankCurve[] = [];
  const bySetting: Record<string, number> = {};
  const bySize = new Map<number, ReturnType<typeof rerankExample>[]>();
  for (const setting of grid) {
    if (!bySize.has(setting.shortlist)) bySize.set(setting.shortlist, trainQueries.filter((q) => q.example !== null).map((q) => rerankExample(q, first, setting.shortlist)));
    const examples = (bySize.get(setting.shortlist) ?? []).filter((e) => e !== null);
    const name = `k${setting.shortlist}-h${setting.hidden}-r${setting.rank}-l2${setting.l2}`;
    log(`rerank ${name}: ${examples.length} train questions with the right answer in the shortlist`);
    let sinceBest = 0;
    let settingBest = -1;
    await fitRerank(
      examples,
      dimensions,
      {
        ...setting,
        epochs,
        learningRate: LEARNING_RATE,
        batch: BATCH,
        onEpoch: (epoch, model, loss) => {
          const s = rankingScores(validation, { ...first, rerank: model });
          const t = transfer.length > 0 ? rankingScores(transfer, { ...first, rerank: model }).right3 : s.right3;
          const score = (s.right3 + t) / 2;
          curves.push({ setting: name, epoch, loss: round(loss), validationRight1: round(s.right1), validationRight3: round(s.right3), transferRight3: round(t) });
          log(`rerank ${name} epoch ${epoch}: train loss ${loss.toFixed(4)}, validation right@1 ${(100 * s.right1).toFixed(1)}%, right@3 ${(100 * s.right3).toFixed(1)}%, transfer right@3 ${(100 * t).toFixed(1)}%`);
          if (score > settingBest) {
            settingBest = score;
            sinceBest = 0;
          } else sinceBest++;
          if (setting.rank === 0 && (!withoutBilinear || score > withoutBilinear.score)) withoutBilinear = { model, score };
          if (!best || score > best.right3) best = { model, setting: name, epoch, right3: score, curves, bySetting, trainQuestions: examples.length, withoutBilinear: null };
          return sinceBest < PATIENCE;
        },
      },
      random,
    );
    bySetting[name] = round(settingBest);
  }
  if (!best) throw new Error('no rerank setting was fitted');
  const chosen: RerankChoice = best;
  return { ...chosen, withoutBilinear: (withoutBilinear as { model: RerankModel } | null)?.model ?? null };
}
