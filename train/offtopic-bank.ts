/** The hand-written off-topic scenarios: train/offtopic.json to fit and choose, eval/offtopic/eval.json to report only. */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../eval/interviews.ts';

const Bank = z.object({ purpose: z.string(), scenarios: z.array(z.object({ id: z.string(), subject: z.string(), scenario: z.string().min(1) })) });
export type OffTopic = z.infer<typeof Bank>['scenarios'][number];

export const TRAIN_OFFTOPIC = path.join(REPO_ROOT, 'train', 'offtopic.json');
export const EVAL_OFFTOPIC = path.join(REPO_ROOT, 'eval', 'offtopic', 'eval.json');

export function readOffTopic(file: string): OffTopic[] {
  return Bank.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).scenarios;
}
