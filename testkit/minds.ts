/**
 * A mind as the service builds it, in this process: the memory bank of some utterances, its passages
 * embedded by the real sentence encoder and stored (quantised) as the analysis thread stores them.
 */
import type { Utterance } from '../src/ingest/transcript.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import { embedForStorage, passagesOf } from '../src/memory/build/passages.ts';
import { UseLiteEncoder } from '../src/memory/encoder/use-lite.ts';
import { MindMemory } from '../src/memory/mind-memory.ts';
import { rankingParams } from '../src/memory/params/params.ts';
import { Searcher } from '../src/memory/search/searcher.ts';
import type { StoredMemory } from '../src/memory/types.ts';
import type { Turn } from './fixtures.ts';

let encoder: Promise<UseLiteEncoder> | null = null;
/** One encoder per test process. */
export const testEncoder = (): Promise<UseLiteEncoder> => (encoder ??= UseLiteEncoder.load());

/** A Searcher over the test process's encoder and the committed parameters. */
export const testSearcher = (): Searcher => new Searcher(testEncoder, rankingParams());

/** `speaker` names the person among the turns' speakers when their name is not `mindName`. */
export async function embeddedMind(turns: readonly (Turn | Utterance)[], mindName: string, snapshotId = 'snap-1', speaker: string | null = null): Promise<MindMemory> {
  const utterances: Utterance[] = turns.map((t) => ({ ...t, speaker: t.speaker ?? null }));
  const bank = buildMemoryBank({ utterances, mindName, speaker });
  return embeddedMemories(`${mindName}:${snapshotId}`, bank.memories.map((m) => ({ ...m, snapshotId })));
}

/** A mind of one snapshot's memories (in any order), its passages embedded and stored as the analysis thread stores them. */
export async function embeddedMemories(key: string, memories: readonly StoredMemory[]): Promise<MindMemory> {
  const snapshotId = memories[0]?.snapshotId ?? key;
  const { spans, texts } = passagesOf([...memories].sort((a, b) => a.seq - b.seq));
  const { encoder, vectors } = await embedForStorage(await testEncoder(), texts);
  return MindMemory.build(key, memories, [{ snapshotId, encoder, spans, vectors }], encoder);
}
