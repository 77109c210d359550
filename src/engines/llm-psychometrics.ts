/**
 * LLM estimates of a person's psychometrics, written when a snapshot is processed (with an LLM
 * configured), stored with it and always labelled as estimates: Big Five traits on a 0–1 scale,
 * each with the model's rationale, and the passages the expert reflections rest on. Every claim
 * cites the person's numbered statements ([M3]); citations outside the material are dropped.
 */
import { llmFor, type TextRedaction } from './llm-redacting.ts';
import { z } from 'zod';
import type { ProfileRef } from '../memory/profile-types.ts';
import type { Memory } from '../memory/types.ts';
import type { LlmClient } from './llm-model.ts';
import { memoriesBrief, withinBudget } from './llm-prompt.ts';
import { roundEstimate, unitScore } from '../memory/answer/scores.ts';
import { UNSCORED_TRAIT } from '../memory/tuning.ts';

export const BIG_FIVE = ['openness', 'conscientiousness', 'extraversion', 'agreeableness', 'neuroticism'] as const;
export type BigFiveTrait = (typeof BIG_FIVE)[number];

export interface PsychometricEstimates {
  bigFive: Array<{ trait: BigFiveTrait; score: number; rationale: string; evidence: ProfileRef[] }>;
  judgements: Array<{ expert: string; text: string; evidence: ProfileRef[] }>;
}

export interface EstimateInput {
  mindName: string;
  memories: readonly Memory[];
  /** The expert reflections written for the same snapshot (none when they failed). */
  reflections: ReadonlyArray<{ expert: string; text: string }>;
  /** The mind's redaction when it is on: the prompt passes through it. */
  redaction?: TextRedaction;
}

export type EstimatePsychometrics = (input: EstimateInput) => Promise<{ model: string; estimates: PsychometricEstimates }>;

/** Cited statements kept per claim. */
const MAX_EVIDENCE = 3;

const Trait = z.object({
  score: z.number().describe('0 = very low, 0.5 = average, 1 = very high'),
  rationale: z.string(),
  statements: z.array(z.number().int()).describe('numbers of the statements ([M#]) the estimate rests on'),
});
const Answer = z.object({
  openness: Trait,
  conscientiousness: Trait,
  extraversion: Trait,
  agreeableness: Trait,
  neuroticism: Trait,
  judgements: z.array(z.object({ expert: z.string(), statements: z.array(z.number().int()) })),
});

function system(): string {
  return (
    'You estimate the Big Five personality traits (openness, conscientiousness, extraversion, agreeableness, neuroticism) ' +
    'of a real person from their own words in interviews. These are rough estimates from limited material, not a test result: ' +
    'stay near 0.5 when the material says little. Cite the numbered statements each estimate rests on. ' +
    'For each expert reflection given, cite the statements it rests on.'
  );
}

function prompt(mindName: string, statements: string, reflections: EstimateInput['reflections']): string {
  return [
    `# What ${mindName} said (numbered statements)`,
    statements,
    '# Expert reflections',
    reflections.length ? reflections.map((r) => `[${r.expert}] ${r.text}`).join('\n') : '(none)',
    '# Task',
    `Estimate each Big Five trait of ${mindName} (score 0 to 1, a one-sentence rationale, the statement numbers). ` +
      'Then, for each expert reflection above, give the expert as written and the statement numbers it rests on.',
  ].join('\n\n');
}


/** A trait score in [0, 1] (the middle when the model gave none), to two decimals: an estimate, not a measured score. */
const clamp01 = (n: number) => roundEstimate(unitScore(n, UNSCORED_TRAIT));

export function psychometricEstimator(llm: LlmClient): EstimatePsychometrics {
  return async ({ mindName, memories, reflections, redaction }) => {
    const sent = withinBudget(memories, llm.settings.contextWords);
    const statements = memoriesBrief(sent.map((m) => ({ ...m, snapshotId: '' })));
    const r = await llmFor(llm, redaction).object(Answer, system(), prompt(mindName, statements, reflections), 'psychometrics');
    const cited = (numbers: readonly number[]): ProfileRef[] =>
      [...new Set(numbers)]
        .flatMap((n) => sent[n - 1] ?? [])
        .slice(0, MAX_EVIDENCE)
        .map((m) => ({ seq: m.seq, text: m.text, start: m.start, end: m.end, page: m.page }));
    return {
      model: llm.modelName,
      estimates: {
        bigFive: BIG_FIVE.map((trait) => ({ trait, score: clamp01(r[trait].score), rationale: r[trait].rationale, evidence: cited(r[trait].statements) })),
        judgements: reflections.map((x) => ({
          expert: x.expert,
          text: x.text,
          evidence: cited(r.judgements.find((j) => j.expert.trim().toLowerCase() === x.expert)?.statements ?? []),
        })),
      },
    };
  };
}
