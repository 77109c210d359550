/** Held-out answer prediction: which answers are held out, and the engine's and baselines' answers scored. */
import { seededRandom } from '../src/memory/seeded-random.ts';
import { BASELINES, baselineTexts, type BaselineName } from './baselines.ts';
import type { HeldOutAnswer, HeldOutSet } from './engine.ts';
import { holdOut, type Interview } from './interviews.ts';
import { discrimination, scoreAnswer, type Scores } from './metrics.ts';
import { paraphrase } from './paraphrase.ts';

export interface Scored extends Scores {
  /** Discrimination of this answer among the person's held-out questions (NaN with a single question). */
  disc: number;
}

export interface HeldOutRow {
  person: string;
  file: string;
  format: string;
  /** The engine said it does not know (no evidence, or the explicit decline). */
  unknown: boolean;
  engine: Scored;
  baselines: Record<BaselineName, Scored>;
}

export interface HeldOutPlan {
  sets: HeldOutSet[];
  /** Per interview file, the baseline texts per held-out question. */
  baselines: Map<string, Record<BaselineName, string>[]>;
}

/** Held-out pairs, the reworded questions and the baseline texts of every interview. */
export function planHeldOut(interviews: readonly Interview[], per: number, seed: number): HeldOutPlan {
  const sets: HeldOutSet[] = [];
  const baselines = new Map<string, Record<BaselineName, string>[]>();
  for (const [n, interview] of interviews.entries()) {
    const heldOut = holdOut(interview, per);
    const asked = heldOut.map((p) => paraphrase(p.question));
    sets.push({ interview, heldOut, asked });
    baselines.set(interview.file, baselineTexts({ interview, heldOut, asked, all: interviews, random: seededRandom(seed * 1000 + n) }));
  }
  return { sets, baselines };
}

function scoredAll(predicted: readonly string[], real: readonly string[]): Scored[] {
  const disc = discrimination(predicted, real);
  return predicted.map((p, i) => ({ ...scoreAnswer(p, real[i] ?? ''), disc: disc[i] ?? NaN }));
}

/** Every held-out answer of the engine scored, with the baselines of the same question, in interview/format/question order. */
export function scoreHeldOut(plan: HeldOutPlan, answers: readonly HeldOutAnswer[], formats: readonly string[]): HeldOutRow[] {
  const rows: HeldOutRow[] = [];
  const byKey = new Map(answers.map((a) => [`${a.file}\n${a.format}\n${a.index}`, a]));
  for (const set of plan.sets) {
    const real = set.heldOut.map((p) => p.answer);
    const texts = plan.baselines.get(set.interview.file) ?? [];
    const base = Object.fromEntries(BASELINES.map((b) => [b, scoredAll(texts.map((t) => t[b]), real)])) as Record<BaselineName, Scored[]>;
    for (const format of formats) {
      const mine = real.map((_, i) => byKey.get(`${set.interview.file}\n${format}\n${i}`));
      if (mine.some((a) => !a)) throw new Error(`missing engine answers for ${set.interview.file} (${format})`);
      const engine = scoredAll(mine.map((a) => a?.saying ?? ''), real);
      real.forEach((_, i) => {
        rows.push({
          person: set.interview.guest,
          file: set.interview.file,
          format,
          unknown: mine[i]?.unknown ?? false,
          engine: engine[i] as Scored,
          baselines: Object.fromEntries(BASELINES.map((b) => [b, base[b][i] as Scored])) as Record<BaselineName, Scored>,
        });
      });
    }
  }
  return rows;
}
