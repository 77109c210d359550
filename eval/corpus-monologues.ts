/**
 * Short monologues of test people (train/monologues.ts: a stretch of their own words around one of
 * their answers, 250–750 words, the interviewer's questions removed, as the service reads a talk or
 * a profile recording with one speaker), asked their questions that lie inside it and the
 * hand-written off-topic scenarios of eval/offtopic/eval.json. Nothing here was fitted on: test
 * people, the report bank.
 */
import { USE_LITE } from '../src/memory/encoder/use-lite.ts';
import type { RankingParams } from '../src/memory/params/params.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import type { Person } from '../train/dataset.ts';
import { textsOf } from '../train/dataset.ts';
import type { EmbeddingCache } from '../train/embedding-cache.ts';
import { mindOf, queryExamples } from '../train/examples.ts';
import { confidenceRows, confidencesOf, rankingScores } from '../train/measure.ts';
import { shortMonologue } from '../train/monologues.ts';
import { auroc } from './metrics.ts';

/** A seed of its own, so the monologues are the same on every run whatever the split's seed. */
const MONOLOGUE_SEED = 41;
/** Off-topic scenarios asked of each monologue (from the report bank, in turn). */
const OFF_TOPIC_EACH = 2;

export interface MonologueScores {
  minds: number;
  onTopic: number;
  offTopic: number;
  answered: number;
  declined: number;
  auroc: number;
  right3: number;
}

export async function monologueScores(people: readonly Person[], bank: readonly string[], cache: EmbeddingCache, params: RankingParams): Promise<MonologueScores> {
  const random = seededRandom(MONOLOGUE_SEED);
  const monologues = people.map((p) => shortMonologue(p, random)).filter((m): m is Person => m !== null && m.examples.length > 0);
  const off = (i: number) => Array.from({ length: OFF_TOPIC_EACH }, (_, k) => bank[(i * OFF_TOPIC_EACH + k) % bank.length] as string);
  try {
    await cache.ensure(textsOf(monologues, monologues.flatMap((_, i) => off(i))));
  } finally {
    await cache.close();
  }
  const queries = monologues.flatMap((m, i) => queryExamples(m, mindOf(m, cache, USE_LITE.id), cache, off(i), params.adapter));
  const rows = confidenceRows(queries, params);
  const pOn = confidencesOf(rows, params.onTopic);
  const conf = confidencesOf(rows, params.confidence).map((c, i) => c * (pOn[i] as number));
  const isOff = rows.map((r) => r.offTopic);
  const on = pOn.filter((_, i) => !isOff[i]);
  const offP = pOn.filter((_, i) => isOff[i]);
  return {
    minds: monologues.length,
    onTopic: on.length,
    offTopic: offP.length,
    answered: on.filter((p) => p >= params.declineBelow).length / on.length,
    declined: offP.filter((p) => p < params.declineBelow).length / offP.length,
    auroc: auroc(
      conf.filter((_, i) => !isOff[i]),
      conf.filter((_, i) => isOff[i]),
    ),
    right3: rankingScores(queries, params).right3,
  };
}
