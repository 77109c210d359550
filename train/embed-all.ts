/** Embeds the whole dataset into the cache (the expensive, resumable part of `npm run train`). */
import { USE_LITE } from '../src/memory/encoder/use-lite.ts';
import { cachedDataset } from './cached-dataset.ts';
import { textsOf } from './dataset.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { EVAL_OFFTOPIC, readOffTopic, TRAIN_OFFTOPIC } from './offtopic-bank.ts';

export async function embedAll(seed: number, cache: EmbeddingCache): Promise<ReturnType<typeof cachedDataset>> {
  const t0 = performance.now();
  const people = cachedDataset(seed);
  console.log(`dataset: ${people.length} person-episodes (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const bank = [...readOffTopic(TRAIN_OFFTOPIC), ...readOffTopic(EVAL_OFFTOPIC)].map((s) => s.scenario);
  const texts = textsOf(people, bank);
  const t1 = performance.now();
  let last = 0;
  await cache.ensure(texts, (done, total) => {
    if (done - last >= 2000 || done === total) {
      last = done;
      console.log(`embedded ${done}/${total} (${((performance.now() - t1) / 1000).toFixed(0)} s)`);
    }
  });
  return people;
}

if (import.meta.main) {
  const cache = new EmbeddingCache(USE_LITE.id, USE_LITE.dimensions);
  await embedAll(Number(process.argv[2] ?? 20261126), cache);
  await cache.close();
}
