/**
 * The typed answers' fitted numbers (typed.json beside this file), written by `npm run train:typed`
 * (train/typed.ts) on corpus people of the train split, with their provenance, and read once here,
 * checked: a file that does not match is refused at start.
 */
import fs from 'node:fs';
import { z } from 'zod';

export const TypedParams = z.object({
  /** yes/no: the best of Yes and No must have this support… */
  yesNoSupport: z.number().min(0).max(1),
  /** …and lead the other's by this. */
  yesNoMargin: z.number().min(0).max(1),
  /** single over words: the best option's support must reach this… */
  optionSupport: z.number().min(0).max(1),
  /** …and lead the next option's by this. */
  optionMargin: z.number().min(0).max(1),
  /** likert and number: the share of the question's subject words a sentence must say to be read. */
  topicShare: z.number().min(0).max(1),
  /** likert, and a yes/no question of judgement: a sentiment weaker than this is no stance. */
  minStance: z.number().min(0).max(1),
  /** yes/no: the weight of the encoder's anchor reading (SSR) beside the clause's reading; 0 is off. */
  ssrWeight: z.number().min(0),
  provenance: z.record(z.string(), z.unknown()),
});
export type TypedParams = z.infer<typeof TypedParams>;

export const TYPED_FILE = new URL('./typed.json', import.meta.url);

let loaded: TypedParams | null = null;

/** The committed typed parameters, read once. */
export function typedParams(): TypedParams {
  return (loaded ??= TypedParams.parse(JSON.parse(fs.readFileSync(TYPED_FILE, 'utf8'))));
}
