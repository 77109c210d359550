/**
 * Hybrid retrieval of what a person said that bears on a scenario.
 *
 * 1. The scenario is split into its ask and its context (scenario.ts); in a conversation the
 *    latest earlier messages to the person join at a lower weight (standing in for the subject
 *    of an ask too thin to search alone).
 * 2. Lexical: BM25 (index.ts) over the ask's terms at full weight, the context's at a low
 *    weight, and — with the semantic index — the person's own terms nearest each ask word in
 *    meaning ("elderly" → "older"), weighted by similarity.
 * 3. Semantic: cosine of the scenario's vector (ask and context) with each sentence's. (The
 *    interviewer's questions are matched lexically, in BM25's question field: their vectors,
 *    tried too, made held-out answers less specific — interviewers' questions look alike.)
 * 4. The two rankings are fused by reciprocal rank fusion; sentences are grouped into the
 *    answers they belong to, and answers ranked by their best sentences.
 *
 * The signals for confidence are reported with it (see confidence.ts). Deterministic.
 */
import { idealScore, type SearchHit } from './index.ts';
import type { MindMemory } from './mind-memory.ts';
import { scenarioTokens } from './scenario.ts';
import type { StoredMemory } from './types.ts';

const CONTEXT_WEIGHT = 0.6;
/**
 * Earlier messages of a conversation (scenario.ts): when the ask is too thin to search on its own
 * ("What would you do first?") they stand in for its subject at this weight; otherwise they only
 * nudge the ranking towards the conversation's subject, at the lower one, and count for nothing else.
 */
const LEANING_HISTORY_WEIGHT = 0.5;
const HISTORY_WEIGHT = 0.2;
/** Ask words expanded through word vectors: at most this many neighbours each, at least this similar. */
const NEIGHBOURS = 3;
const MIN_NEIGHBOUR = 0.55;
/** A neighbour at least this similar counts as covering the scenario word it came from. */
const COVERING_NEIGHBOUR = MIN_NEIGHBOUR;
const MAX_EXPANDED_WORDS = 24;
/** The context's vector counts as much as the ask's in the scenario's vector. */
const CONTEXT_SIMILARITY = 1;
const CANDIDATES = 100;
/** An answer's score: its best sentence's, plus this share of its next SUPPORTING sentences'. */
const SUPPORT_WEIGHT = 0.3;
const SUPPORTING = 2;
/** Reciprocal rank fusion constant. */
const RRF_K = 10;

export interface RankedDoc {
  doc: number;
  memory: StoredMemory;
  /** BM25 score normalised by the ask's ideal match, in [0, 1]. */
  lexical: number;
  /** Semantic score (cosines, see the module comment); 0 without the semantic index. */
  semantic: number;
  /** Fused rank score. */
  fused: number;
  /** Ask words (stems) this sentence covers, exactly or through a near neighbour. */
  covers: string[];
}

export interface AnswerHit {
  /** The best sentence of the answer. */
  lead: RankedDoc;
  /** Its other retrieved sentences, best first. */
  support: RankedDoc[];
  score: number;
}

export interface Signals {
  /** Lexical strength of the best answer (its best sentence's BM25 against the scenario's ideal match), in [0, 1]. */
  lexical: number;
  /** Best semantic score in the best answer (cosines, see semanticScores). */
  semantic: number;
  /** Share of the weight of the scenario's nouns (its subjects) in words the person never used and has nothing near. */
  topicUnknown: number;
}

export interface Retrieval {
  ask: string;
  context: string;
  leansOnHistory: boolean;
  ranked: RankedDoc[];
  answers: AnswerHit[];
  signals: Signals;
}

interface QueryTerm {
  term: string;
  weight: number;
  /** The ask word (stem) this term stands for: itself, or the word it is a neighbour of. */
  covers: string | null;
}

export function retrieve(mind: MindMemory, scenario: string, priorTurns: readonly string[] = []): Retrieval {
  const { lexical, semantic } = mind;
  const parts = scenarioTokens(scenario, priorTurns);
  const topics = parts.nouns;
  const expandable = parts.nounsAndVerbs;
  // A thin ask searches with the earlier messages' words as its own, at a lower weight.
  const asked = parts.leansOnHistory ? [...parts.askTokens, ...parts.historyTokens] : parts.askTokens;
  const ownAsk = new Set(parts.askTokens.map((t) => t.stem));
  const askWeight = new Map<string, number>();
  for (const t of parts.askTokens) askWeight.set(t.stem, lexical.idfOf(t.stem));
  if (parts.leansOnHistory) for (const t of parts.historyTokens) if (!askWeight.has(t.stem)) askWeight.set(t.stem, lexical.idfOf(t.stem) * LEANING_HISTORY_WEIGHT);
  const contextWeight = new Map<string, number>();
  for (const t of parts.contextTokens) if (!askWeight.has(t.stem)) contextWeight.set(t.stem, lexical.idfOf(t.stem) * CONTEXT_WEIGHT);
  const query = new Map<string, QueryTerm>();
  const put = (term: string, weight: number, covers: string | null) => {
    const had = query.get(term);
    if (!had || had.weight < weight) query.set(term, { term, weight, covers: covers ?? had?.covers ?? null });
  };
  for (const [term, w] of askWeight) put(term, w, term);
  for (const [term, w] of contextWeight) put(term, w, term);
  if (!parts.leansOnHistory) for (const t of parts.historyTokens) put(t.stem, lexical.idfOf(t.stem) * HISTORY_WEIGHT, null);
  // Words of the scenario the person never used (or used rarely) reach their nearest words in meaning.
  const nearOf = new Map<string, number>(); // scenario stem → best neighbour similarity
  if (semantic) {
    const seen = new Set<string>();
    for (const t of [...asked, ...parts.contextTokens]) {
      // Nouns and verbs only: an adjective's neighbours are mostly its kin ('significant': 'bigger', 'fewer').
      if (seen.has(t.word) || seen.size >= MAX_EXPANDED_WORDS || !expandable.has(t.stem)) continue;
      seen.add(t.word);
      const known = lexical.documentFrequency(t.stem) > 0;
      const own = askWeight.has(t.stem) ? (ownAsk.has(t.stem) ? 1 : LEANING_HISTORY_WEIGHT) : CONTEXT_WEIGHT;
      const scale = own * (known ? 0.5 : 1);
      for (const n of semantic.wordNeighbours(t.word, NEIGHBOURS + 1, MIN_NEIGHBOUR)) {
        if (n.term === t.stem) continue;
        const covering = n.similarity >= COVERING_NEIGHBOUR;
        if (covering) nearOf.set(t.stem, Math.max(nearOf.get(t.stem) ?? 0, n.similarity));
        put(n.term, lexical.idfOf(n.term) * n.similarity ** 2 * scale, covering ? t.stem : null);
      }
    }
  }
  const terms = [...query.values()];
  const ideal = idealScore([...askWeight.values(), ...contextWeight.values()]);
  const hits = lexical.searchTerms(terms, CANDIDATES, ideal);
  const sims = semanticScores(mind, asked, parts.contextTokens);
  const ranked = fuse(mind, hits, sims, terms);
  const answers = groupAnswers(mind, ranked);
  return {
    ask: parts.ask,
    context: parts.context,
    leansOnHistory: parts.leansOnHistory,
    ranked,
    answers,
    signals: signalsOf(answers[0], new Map([...contextWeight, ...askWeight]), topics, nearOf, lexical.documentFrequency.bind(lexical)),
  };
}

/** Semantic score per doc (null without the semantic index or when the ask has no vector). */
function semanticScores(mind: MindMemory, ask: MindMemory['tokens'][number], context: MindMemory['tokens'][number]): Float32Array | null {
  const { semantic } = mind;
  const askVector = semantic?.embed(ask);
  if (!semantic || !askVector) return null;
  const contextVector = context.length > 0 ? semantic.embed(context) : null;
  const query = new Float32Array(askVector);
  if (contextVector) {
    let norm = 0;
    for (let d = 0; d < query.length; d++) norm += (query[d] = (query[d] ?? 0) + CONTEXT_SIMILARITY * (contextVector[d] ?? 0)) ** 2;
    for (let d = 0; d < query.length; d++) query[d] = (query[d] ?? 0) / Math.sqrt(norm);
  }
  const n = mind.size;
  const out = new Float32Array(n);
  semantic.docSimilarities(query, out);
  return out;
}

/** Top CANDIDATES docs by semantic score (ties by doc order). */
function topSemantic(sims: Float32Array): number[] {
  // One pass keeping the best CANDIDATES in order (a full sort of every sentence costs more than the search).
  const top: number[] = [];
  let floor = -Infinity;
  for (let i = 0; i < sims.length; i++) {
    const s = sims[i]!;
    if (top.length >= CANDIDATES && s <= floor) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sims[top[mid]!]! >= s) lo = mid + 1; // ties keep doc order: the earlier doc stays first
      else hi = mid;
    }
    top.splice(lo, 0, i);
    if (top.length > CANDIDATES) top.pop();
    if (top.length >= CANDIDATES) floor = sims[top[top.length - 1]!]!;
  }
  return top;
}

function fuse(mind: MindMemory, hits: readonly SearchHit[], sims: Float32Array | null, terms: readonly QueryTerm[]): RankedDoc[] {
  const byDoc = new Map<number, RankedDoc>();
  const coversOf = (matched: readonly string[]) => [
    ...new Set(matched.map((m) => terms.find((t) => t.term === m)?.covers).filter((c): c is string => !!c)),
  ];
  const entry = (doc: number): RankedDoc => {
    let e = byDoc.get(doc);
    if (!e) {
      const memory = mind.memories[doc] as StoredMemory;
      e = { doc, memory, lexical: 0, semantic: sims ? (sims[doc] ?? 0) : 0, fused: 0, covers: [] };
      byDoc.set(doc, e);
    }
    return e;
  };
  hits.forEach((h, rank) => {
    const e = entry(h.doc);
    e.lexical = h.score;
    e.covers = coversOf(h.terms);
    e.fused += 1 / (RRF_K + rank + 1);
  });
  if (sims) topSemantic(sims).forEach((doc, rank) => (entry(doc).fused += 1 / (RRF_K + rank + 1)));
  return [...byDoc.values()].sort((a, b) => b.fused - a.fused || a.doc - b.doc);
}

/** A retrieved sentence's relevance in [0, 1], as evidence reports it: its lexical match, or its semantic one. */
export function relevanceOf(r: RankedDoc): number {
  return Math.min(1, Math.max(r.lexical, Math.max(0, r.semantic / 1.5)));
}

/** The passage of a retrieved answer to quote: about `words` long, where its retrieved sentences weigh most (MindMemory.passage). */
export function passageOf(mind: MindMemory, answer: AnswerHit, words: number): number[] {
  const weight = new Map([answer.lead, ...answer.support].map((r) => [r.doc, r.fused]));
  return mind.passage(answer.lead.doc, words, (doc) => weight.get(doc) ?? 0);
}

/** Retrieved sentences grouped into the answers they belong to, best answer first. */
function groupAnswers(mind: MindMemory, ranked: readonly RankedDoc[]): AnswerHit[] {
  const byAnswer = new Map<number, AnswerHit>();
  for (const r of ranked) {
    const key = mind.answerFirst[r.doc] ?? r.doc;
    const a = byAnswer.get(key);
    if (!a) byAnswer.set(key, { lead: r, support: [], score: r.fused });
    else {
      if (a.support.length < SUPPORTING) a.score += SUPPORT_WEIGHT * r.fused;
      a.support.push(r);
    }
  }
  return [...byAnswer.values()].sort((a, b) => b.score - a.score || a.lead.doc - b.lead.doc);
}

function signalsOf(
  best: AnswerHit | undefined,
  weights: ReadonlyMap<string, number>,
  topics: ReadonlySet<string>,
  nearOf: ReadonlyMap<string, number>,
  df: (term: string) => number,
): Signals {
  // The scenario's subjects when it names any ("Would you switch to sourdough?" is about sourdough), else all its words.
  const subjects = [...weights].filter(([term]) => topics.has(term));
  let total = 0;
  let unknown = 0;
  for (const [term, w] of subjects.length > 0 ? subjects : weights) {
    total += w;
    if (df(term) === 0 && !nearOf.has(term)) unknown += w;
  }
  const topicUnknown = total > 0 ? unknown / total : 1;
  if (!best) return { lexical: 0, semantic: 0, topicUnknown };
  const docs = [best.lead, ...best.support];
  return {
    lexical: Math.max(...docs.map((d) => Math.min(1, d.lexical))),
    semantic: Math.max(...docs.map((d) => d.semantic)),
    topicUnknown,
  };
}
