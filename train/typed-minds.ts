/**
 * The minds of the typed-question set (train/typed-set.ts), built as a snapshot builds them (memory
 * bank, passages, their encoder vectors stored as int8), the vectors from an embedding cache of their
 * own under node_modules/.cache (content-addressed: a second run embeds nothing), and the set itself
 * remembered there by seed (scanning the corpus takes about two minutes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../eval/interviews.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import { passagesOf } from '../src/memory/build/passages.ts';
import { USE_LITE } from '../src/memory/encoder/use-lite.ts';
import { MindMemory } from '../src/memory/mind-memory.ts';
import { quantise } from '../src/memory/vector-math.ts';
import { EmbeddingCache } from './embedding-cache.ts';
import { typedEpisodes, type TypedEpisode } from './typed-set.ts';

export const TYPED_CACHE = path.join(REPO_ROOT, 'node_modules', '.cache', 'mindsim-typed');
const SNAPSHOT = 'corpus';

/** The set of `split` people for `seed`, read from the cache folder or found in the corpus (and cached). */
export function cachedTypedEpisodes(seed: number, split: 'train' | 'validation'): TypedEpisode[] {
  const file = path.join(TYPED_CACHE, `set-${split}-${seed}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as TypedEpisode[];
  const episodes = typedEpisodes(seed, split);
  fs.mkdirSync(TYPED_CACHE, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(episodes));
  return episodes;
}

/** Each episode's mind, in order, its passages embedded through the cache (two threads). */
export async function typedMinds(episodes: readonly TypedEpisode[], onProgress: (done: number, total: number) => void = () => {}): Promise<MindMemory[]> {
  const cache = new EmbeddingCache(USE_LITE.id, USE_LITE.dimensions, 2, TYPED_CACHE);
  try {
    const built = episodes.map((e) => {
      const bank = buildMemoryBank({ utterances: e.turns.map((t) => ({ speaker: t.speaker, text: t.text })), mindName: e.person, speaker: e.person });
      const memories = bank.memories.map((m) => ({ ...m, snapshotId: SNAPSHOT }));
      return { key: `${e.file}:${e.person}`, memories, ...passagesOf(memories) };
    });
    await cache.ensure(
      built.flatMap((b) => b.texts),
      onProgress,
    );
    return built.map((b) => {
      const vectors = quantise(
        b.texts.map((t) => cache.get(t)),
        cache.dimensions,
      );
      return MindMemory.build(b.key, b.memories, [{ snapshotId: SNAPSHOT, encoder: USE_LITE.id, spans: b.spans, vectors }], USE_LITE.id);
    });
  } finally {
    await cache.close();
  }
}
