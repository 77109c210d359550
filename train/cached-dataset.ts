/**
 * The dataset (dataset.ts) kept as JSON beside the embeddings: reading and sentence-splitting ~600
 * episodes takes about two minutes, the same on every run. The key holds the seed, the quotas and
 * DATASET_VERSION, which changes whenever the build stage (memories, passages) changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../eval/interviews.ts';
import { PASSAGE_TAIL_SHARE, PASSAGE_WORDS } from '../src/memory/tuning.ts';
import { buildDataset, QUOTAS, type Person } from './dataset.ts';

/** Bump when the memory bank or the passages are built differently. */
const DATASET_VERSION = 2;

export function cachedDataset(seed: number, quotas = QUOTAS): Person[] {
  const key = `dataset-${DATASET_VERSION}-${seed}-${quotas.train}-${quotas.validation}-${quotas.test}-${PASSAGE_WORDS}-${PASSAGE_TAIL_SHARE}.json`;
  const file = path.join(REPO_ROOT, 'node_modules', '.cache', 'mindsim-train', key);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Person[];
  const people = buildDataset(seed, quotas);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(people));
  return people;
}
