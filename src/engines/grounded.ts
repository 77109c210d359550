/**
 * The offline engine: answers only from the person's own retrieved statements.
 *
 * Everything it says is a quote or light clean-up of memories (never the interviewer's words,
 * never invented facts). When nothing relevant is retrieved it says so, with low confidence.
 * Deterministic: no randomness, no clock.
 */
import type { Engine, SimulationInput, SimulationResult } from './types.ts';
import { evidenceItem, round3 } from './evidence.ts';
import type { StoredMemory } from '../memory/types.ts';
import { MemoryIndex, type QueryTerm, type SearchHit } from '../memory/index.ts';
import { sentimentOf } from '../memory/sentences.ts';
import { behaviourStrength } from '../memory/behaviours.ts';

/** Memories scoring below this are not treated as relevant to the scenario. */
export const MIN_RELEVANT = 0.2;
const MIN_BEHAVIOUR = 0.12;
/** A scenario whose term weight is at least this share unknown words needs a multi-term match. */
const UNKNOWN_TOPIC_SHARE = 0.4;
const RETRIEVE_K = 40;
const CACHE_SIZE = 32;
/** The saying's length target: the person's median answer length times this, clamped to the bounds below. */
const SAYING_LENGTH_FACTOR = 1.5;
const SAYING_MIN_WORDS = 40;
const SAYING_MAX_WORDS = 200;
/** Runners-up scoring below this are not quoted. */
const SAYING_MIN_SCORE = 0.05;

export const UNKNOWN_SAYING = "I haven't talked about that, so I can't say how I'd respond.";
/** Below this confidence the message admits the answer is only the closest thing the person said. */
const LOW_CONFIDENCE = 0.35;
const LOW_CONFIDENCE_LEAD = "I haven't spoken to exactly this, but here's the closest thing I've said.";

const FIRST_PERSON_RE = /\b(I|I'm|I've|I'd|I'll|me|my|mine|myself|we|our|us)\b/;
const REASONING_RE =
  /\b(because|since|depends|important|matters?|worr(y|ied)|risk|reason|trade-?off|balance|priorit\w*|rather|instead|the thing is|I think|I believe|I feel|the key)\b/i;
const LEADING_FILLER_RE = /^(?:(?:and|but|so|yeah|well|um|uh|oh|like|okay|ok|you know|I mean)[,.]?\s+)+/i;
const INLINE_FILLER_RE = /,?\s+\b(?:uh|um|erm)\b,?/gi;

/** A memory chosen for the answer, with its retrieval score. */
type Hit = SearchHit;


/** Tidy a spoken sentence for quoting: drop leading "And/So/Yeah," and inline "uh/um", capitalise. */
export function tidy(text: string): string {
  let t = text.replace(/^[\s.,;:…—–-]+/, '');
  if (t.startsWith('"') && (t.match(/"/g) ?? []).length % 2 === 1) t = t.slice(1); // a quote opened in the previous sentence
  t = t.replace(INLINE_FILLER_RE, '').replace(LEADING_FILLER_RE, '').trim() || text.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…"”']$/.test(capital) ? capital : `${capital}.`;
}

/** A short quote: the sentence tidied, cut to ~maxWords words with "…". */
function quote(text: string, maxWords = 30): string {
  const words = tidy(text).split(' ');
  const body = words.length > maxWords ? `${words.slice(0, maxWords).join(' ')}…` : words.join(' ');
  return `“${body}”`;
}

/** A question's gist: its last ~20 words (where the actual question usually is), quoted. */
function quoteQuestion(question: string): string {
  const words = question.trim().split(/\s+/);
  const tail = words.length > 20 ? `…${words.slice(-20).join(' ')}` : words.join(' ');
  return `“${tail}”`;
}

function bySource(a: Hit, b: Hit): number {
  const x = a.memory;
  const y = b.memory;
  if (x.snapshotId !== y.snapshotId) return x.snapshotId < y.snapshotId ? -1 : 1;
  return x.seq - y.seq;
}

/** A runner-up stays on the top hit's topic: it shares one of its terms or matches two of the scenario's. */
function onTopic(hit: Hit, top: Hit): boolean {
  return hit.terms.length >= 2 || hit.terms.some((t) => top.terms.includes(t));
}

/**
 * Statements for the reply, in source order: the top hit and the runners-up on its topic, best
 * first, until the person's usual answer length (their median answer × SAYING_LENGTH_FACTOR,
 * within SAYING_MIN_WORDS…SAYING_MAX_WORDS); at least the top hit.
 */
function pickSaying(hits: readonly Hit[], index: MemoryIndex): Hit[] {
  const top = hits[0];
  if (!top) return [];
  const target = Math.min(SAYING_MAX_WORDS, Math.max(SAYING_MIN_WORDS, index.typicalAnswerWords * SAYING_LENGTH_FACTOR));
  const picked: Hit[] = [];
  const seen = new Set<string>();
  let words = 0;
  for (const hit of hits) {
    if (words >= target) break;
    const key = hit.memory.text.toLowerCase().replace(/\W+/g, ' ').trim();
    if (seen.has(key) || hit.score < SAYING_MIN_SCORE) continue;
    if (hit !== top && !onTopic(hit, top)) continue;
    seen.add(key);
    picked.push(hit);
    words += hit.memory.text.split(' ').length;
  }
  return picked.sort(bySource);
}

function composeSaying(picked: readonly Hit[]): string {
  const text = picked.map((h) => tidy(h.memory.text)).join(' ');
  return FIRST_PERSON_RE.test(text) ? text : `The way I see it: ${text}`;
}

/** The relevant memories on the top hit's topic, best first (at most 8). */
function topicalPool(relevant: readonly Hit[], top: Hit): Hit[] {
  return relevant.filter((h) => h === top || onTopic(h, top)).slice(0, 8);
}

/** "They would weigh …": their reasoning statements, framed by the questions they answered. */
function composeThinking(pool: readonly Hit[], saying: readonly Hit[]): { text: string; used: Hit[] } {
  const fresh = pool.filter((h) => !saying.includes(h));
  const reasoned = [...fresh, ...saying].filter((h) => REASONING_RE.test(h.memory.text));
  const used = (reasoned.length > 0 ? reasoned : fresh.length > 0 ? fresh : [...saying]).slice(0, 2);
  const questions = [...new Set(pool.map((h) => h.memory.question ?? ''))].filter((q) => q.includes('?')).slice(0, 2);
  const points = used.map((h) => quote(h.memory.text)).join(' and ');
  const asked = questions.length > 0 ? ` when asked ${questions.map(quoteQuestion).join(' and ')}` : ' before';
  return { text: `They would weigh the considerations they raised${asked}: ${points}.`, used };
}

/** Affect from wink sentiment of the topical statements, with the statement that shows it. */
function composeFeeling(pool: readonly Hit[]): { text: string; used: Hit[] } {
  const rated = pool.map((hit) => ({ hit, s: sentimentOf(hit.memory.text) }));
  const weight = rated.reduce((sum, r) => sum + r.hit.score, 0) || 1;
  const avg = rated.reduce((sum, r) => sum + r.s * r.hit.score, 0) / weight;
  const most = (sign: 1 | -1) => [...rated].sort((a, b) => sign * (b.s - a.s))[0];
  const pos = most(1);
  const neg = most(-1);
  const first = rated[0];
  if (!pos || !neg || !first) return { text: 'Unknown: no statements to judge their feelings by.', used: [] };
  const strongPos = pos.s >= 0.3;
  const strongNeg = neg.s <= -0.3;
  if (strongPos && strongNeg && Math.abs(avg) < 0.2) {
    const text = `Mixed: upbeat about some of it (${quote(pos.hit.memory.text)}) but uneasy about some (${quote(neg.hit.memory.text)}).`;
    return { text, used: [pos.hit, neg.hit] };
  }
  if (avg >= 0.1 && strongPos) return { text: `Mostly positive: ${quote(pos.hit.memory.text)}`, used: [pos.hit] };
  if (avg <= -0.1 && strongNeg) return { text: `Uneasy: ${quote(neg.hit.memory.text)}`, used: [neg.hit] };
  return { text: `Fairly neutral: they talk about this matter-of-factly, e.g. ${quote(first.hit.memory.text)}`, used: [first.hit] };
}

/** Stated behaviours relevant to the scenario, strongest habit first. */
function composeActing(hits: readonly Hit[], top: Hit): { text: string; used: Hit[] } {
  const used = hits
    .filter((h) => h.score >= MIN_BEHAVIOUR && (h === top || onTopic(h, top)))
    .map((hit) => ({ hit, rank: behaviourStrength(hit.memory.text) * hit.score }))
    .filter((b) => b.rank > 0)
    .sort((a, b) => b.rank - a.rank)
    .slice(0, 2)
    .map((b) => b.hit);
  if (used.length === 0) {
    return { text: 'No stated behaviour is known for situations like this: they have not said what they do.', used };
  }
  return { text: `Going by what they say they do: ${used.map((h) => quote(h.memory.text, 40)).join(' ')}`, used };
}

/**
 * Share of the scenario's term weight (IDF) carried by words the person never used, counted over
 * its nouns (what it is about) when it has any: "Do you *miss* having a boss?" is about a boss.
 */
function unknownShare(query: readonly QueryTerm[]): number {
  const topics = query.filter((t) => t.topic);
  const counted = topics.length > 0 ? topics : query;
  const total = counted.reduce((sum, t) => sum + t.weight, 0);
  const unknown = counted.reduce((sum, t) => sum + (t.known ? 0 : t.weight), 0);
  return total > 0 ? unknown / total : 1;
}

/**
 * Nothing relevant: no memory scores MIN_RELEVANT, or much of what the scenario is about
 * (≥ UNKNOWN_TOPIC_SHARE) is words the person never used and no single memory matches two of its terms —
 * e.g. "your favourite football team?" against someone who only mentioned a "favorite" and a "team".
 */
function isOffTopic(query: readonly QueryTerm[], relevant: readonly Hit[]): boolean {
  if (relevant.length === 0) return true;
  const best = Math.max(...relevant.map((h) => h.terms.length));
  return unknownShare(query) >= UNKNOWN_TOPIC_SHARE && best < 2;
}

/**
 * Confidence in [0, 0.95]: the top score, scaled by how many memories back it (support), how
 * much of the scenario's term weight the memories used cover, and down by the share of what the
 * scenario is about that the person never talked about.
 */
function confidenceOf(query: readonly QueryTerm[], relevant: readonly Hit[], used: readonly Hit[]): number {
  const top = relevant[0]?.score ?? 0;
  const support = Math.min(1, relevant.filter((h) => h.score >= top * 0.5).length / 4);
  const covered = new Set(used.flatMap((h) => h.terms));
  const total = query.reduce((sum, t) => sum + t.weight, 0);
  const coverage = total > 0 ? query.reduce((sum, t) => sum + (covered.has(t.term) ? t.weight : 0), 0) / total : 0;
  return round3(Math.min(0.95, top * (0.45 + 0.25 * support + 0.3 * coverage) * (1 - 0.5 * unknownShare(query))));
}


/** The honest answer when nothing the person said bears on the scenario (confidence < 0.2). */
function unknownResult(confidence: number): SimulationResult {
  return {
    message: UNKNOWN_SAYING,
    analysis: {
      thinking: 'Nothing they have said bears on this scenario, so how they would think it through is unknown.',
      feeling: 'Unknown: they have not expressed feelings about anything like this.',
      saying: UNKNOWN_SAYING,
      acting: 'No stated behaviour is known for situations like this: they have not said what they do.',
    },
    confidence,
    evidence: [],
  };
}

/** Small LRU of indexes by memoryKey. */
export class IndexCache {
  private readonly entries = new Map<string, MemoryIndex>();
  constructor(private readonly capacity: number) {}

  get(key: string, memories: readonly StoredMemory[]): MemoryIndex {
    const cached = this.entries.get(key);
    const index = cached && cached.size === memories.length ? cached : MemoryIndex.build(memories);
    this.entries.delete(key); // re-insert: Map order is recency order
    this.entries.set(key, index);
    const oldest = this.entries.keys().next();
    if (this.entries.size > this.capacity && !oldest.done) this.entries.delete(oldest.value);
    return index;
  }
}

export class GroundedEngine implements Engine {
  private readonly cache: IndexCache;

  constructor(options: { cacheSize?: number } = {}) {
    this.cache = new IndexCache(options.cacheSize ?? CACHE_SIZE);
  }

  async simulate(input: SimulationInput): Promise<SimulationResult> {
    return this.answer(input);
  }

  /** Synchronous core of `simulate`. */
  answer(input: SimulationInput): SimulationResult {
    const index = this.cache.get(input.memoryKey, input.memories);
    const query = index.analyze(input.scenario);
    const hits = index.search(input.scenario, RETRIEVE_K);
    const relevant = hits.filter((h) => h.score >= MIN_RELEVANT);
    if (isOffTopic(query, relevant)) return unknownResult(hits.length > 0 ? 0.1 : 0.05);
    const top = relevant[0] as Hit; // not off-topic, so there is one
    const pool = topicalPool(relevant, top);
    const sayingHits = pickSaying(hits, index);
    const saying = composeSaying(sayingHits);
    const thinking = composeThinking(pool, sayingHits);
    const feeling = composeFeeling(pool);
    const acting = composeActing(hits, top);
    const used = [...new Set([...sayingHits, ...thinking.used, ...feeling.used, ...acting.used])];
    const confidence = confidenceOf(query, relevant, used);
    const message = confidence >= LOW_CONFIDENCE ? saying : `${LOW_CONFIDENCE_LEAD} ${saying}`;
    const evidence = used.sort((a, b) => b.score - a.score || bySource(a, b)).map((h) => evidenceItem(h.memory, h.score));
    return { message, analysis: { thinking: thinking.text, feeling: feeling.text, saying, acting: acting.text }, confidence, evidence };
  }
}
