/**
 * Candidate answers and what the offline retrieval can measure about each (eval/ceiling.ts): the
 * engine's own signals, plus the answer-level ones it could add cheaply (the interviewer's
 * question, the whole answer's vector, coverage, length). No signal looks at the expected answer.
 */
import type { Turn } from '../testkit/fixtures.ts';
import { sayingWords, tidy } from '../src/engines/grounded.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import type { MindMemory } from '../src/memory/mind-memory.ts';
import { passageOf, type AnswerHit, type Retrieval } from '../src/memory/retrieval.ts';
import { scenarioTokens } from '../src/memory/scenario.ts';
import { termTokens, type TermToken } from '../src/memory/sentences.ts';
import type { StoredMemory } from '../src/memory/types.ts';

/** Answers the engine retrieved that a re-ranker may choose among. */
const CANDIDATES = 20;

export interface Candidate {
  rank: number;
  hit: AnswerHit;
  /** Every doc of the answer, in order. */
  docs: number[];
  /** What the engine would quote if it chose this answer. */
  saying: string;
}

export const FEATURES = [
  'fused rank',
  'fused score',
  'best lexical',
  'best semantic',
  'mean semantic',
  'ask coverage',
  'question overlap',
  'question similarity',
  'answer similarity',
  'log words',
  'sentences retrieved',
] as const;

/** The person's memories from transcript turns, as a snapshot builds them. */
export function memoryOf(turns: readonly Turn[], guest: string): StoredMemory[] {
  const bank = buildMemoryBank({ utterances: turns.map((t) => ({ speaker: t.speaker, text: t.text })), mindName: guest, speaker: guest });
  return bank.memories.map((m) => ({ ...m, snapshotId: 'eval' }));
}

export function candidatesOf(mind: MindMemory, retrieval: Retrieval): Candidate[] {
  const words = sayingWords(mind);
  return retrieval.answers.slice(0, CANDIDATES).map((hit, rank) => {
    const first = mind.answerFirst[hit.lead.doc] ?? hit.lead.doc;
    const last = mind.answerLast[hit.lead.doc] ?? hit.lead.doc;
    const docs = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    const saying = passageOf(mind, hit, words)
      .map((d) => tidy(mind.memories[d]?.text ?? ''))
      .join(' ');
    return { rank, hit, docs, saying };
  });
}

const dot = (a: Float32Array | null, b: Float32Array | null): number => {
  if (!a || !b) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
};

const queryCache = new WeakMap<Retrieval, { stems: Map<string, number>; vector: Float32Array | null }>();

function queryOf(mind: MindMemory, retrieval: Retrieval) {
  let q = queryCache.get(retrieval);
  if (!q) {
    const parts = scenarioTokens(`${retrieval.context} ${retrieval.ask}`.trim());
    const tokens: TermToken[] = [...parts.askTokens, ...parts.contextTokens];
    const stems = new Map(tokens.map((t) => [t.stem, mind.lexical.idfOf(t.stem)]));
    q = { stems, vector: mind.semantic?.embed(tokens) ?? null };
    queryCache.set(retrieval, q);
  }
  return q;
}

export function features(mind: MindMemory, retrieval: Retrieval, c: Candidate): number[] {
  const q = queryOf(mind, retrieval);
  const retrieved = [c.hit.lead, ...c.hit.support];
  const question = mind.memories[c.docs[0] ?? 0]?.question ?? '';
  const qTokens = question ? termTokens(question) : [];
  const qStems = new Set(qTokens.map((t) => t.stem));
  let idfAll = 0;
  let idfQuestion = 0;
  for (const [stem, idf] of q.stems) {
    idfAll += idf;
    if (qStems.has(stem)) idfQuestion += idf;
  }
  const covered = new Set(retrieved.flatMap((r) => r.covers));
  const answerTokens = c.docs.flatMap((d) => mind.tokens[d] ?? []);
  const words = c.docs.reduce((n, d) => n + (mind.words[d] ?? 0), 0);
  return [
    1 / (1 + c.rank),
    c.hit.score,
    Math.max(...retrieved.map((r) => r.lexical)),
    Math.max(...retrieved.map((r) => r.semantic)),
    retrieved.reduce((s, r) => s + r.semantic, 0) / retrieved.length,
    q.stems.size > 0 ? covered.size / q.stems.size : 0,
    idfAll > 0 ? idfQuestion / idfAll : 0,
    qTokens.length > 0 ? dot(q.vector, mind.semantic?.embed(qTokens) ?? null) : 0,
    dot(q.vector, mind.semantic?.embed(answerTokens) ?? null),
    Math.log(1 + words),
    Math.log(1 + retrieved.length),
  ];
}
