/**
 * A dataset person as the engine would see them: their MindMemory with passage vectors from the
 * cache (quantised as the service stores them), and for each query — their Q/A pairs' questions, or
 * off-topic scenarios — the ranking's features over all their passages and which passages are right.
 */
import { quantise } from '../src/memory/vector-math.ts';
import { MindMemory } from '../src/memory/mind-memory.ts';
import { readQuery, type QueryVectors } from '../src/memory/search/query.ts';
import { passageFeatures, type PassageFeatures } from '../src/memory/search/features.ts';
import type { StoredMemory } from '../src/memory/types.ts';
import type { PassageVectors } from '../src/memory/search/passage-vectors.ts';
import type { Person } from './dataset.ts';
import type { EmbeddingCache } from './embedding-cache.ts';

export const CORPUS_SNAPSHOT = 'corpus';

export interface QueryExample {
  person: string;
  /** null for an off-topic scenario. */
  example: number | null;
  features: PassageFeatures;
  /** 1 for each passage inside the right answer (none for off-topic). */
  labels: Uint8Array;
  /** What the second stage reads (search/rerank.ts): the ask's vector, the mind's passages and its size in docs. */
  ask: Float32Array;
  passages: PassageVectors;
  docs: number;
}

export function mindOf(person: Person, cache: EmbeddingCache, encoder: string, drop: ReadonlySet<number> = new Set()): MindMemory {
  const memories: StoredMemory[] = person.memories.filter((m) => !drop.has(m.seq)).map((m) => ({ ...m, snapshotId: CORPUS_SNAPSHOT }));
  const kept = person.spans.map((s, i) => ({ s, i })).filter(({ s }) => !drop.has(s.first));
  const vectors = quantise(
    kept.map(({ i }) => cache.get(person.passages[i] as string)),
    cache.dimensions,
  );
  return MindMemory.build(`${person.file}:${person.person}`, memories, [{ snapshotId: CORPUS_SNAPSHOT, encoder, spans: kept.map(({ s }) => s), vectors }], encoder);
}

export function queryVectors(cache: EmbeddingCache, ask: string, context: string): QueryVectors {
  return { ask: cache.get(ask), context: context ? cache.get(context) : null };
}

/** The on-topic queries of a person (their pairs) and the given off-topic scenarios, with features and labels. */
export function queryExamples(person: Person, mind: MindMemory, cache: EmbeddingCache, offTopic: readonly string[], adapter: readonly number[] = []): QueryExample[] {
  const passages = mind.passages;
  if (!passages) throw new Error(`no passages for ${person.person}`);
  const out: QueryExample[] = [];
  person.examples.forEach((e, k) => {
    const q = readQuery(e.question);
    const features = passageFeatures(mind, passages, q, queryVectors(cache, q.ask, q.context), adapter);
    const labels = new Uint8Array(passages.size);
    for (let p = 0; p < passages.size; p++) {
      const seq = mind.memories[passages.first[p] as number]?.seq ?? -1;
      labels[p] = seq >= e.first && seq <= e.last ? 1 : 0;
    }
    out.push({ person: person.person, example: k, features, labels, ask: cache.get(q.ask), passages, docs: mind.size });
  });
  for (const s of offTopic) {
    const q = readQuery(s);
    const features = passageFeatures(mind, passages, q, queryVectors(cache, q.ask, q.context), adapter);
    out.push({ person: person.person, example: null, features, labels: new Uint8Array(passages.size), ask: cache.get(q.ask), passages, docs: mind.size });
  }
  return out;
}
