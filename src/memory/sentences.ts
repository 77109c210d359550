/**
 * Text processing over wink-nlp: sentence splitting for memories, index terms for retrieval,
 * sentiment for the engine.
 *
 * The wink-nlp instances live here and are shared, because each costs ~80–100 ms and ~9 MB to load.
 */
import { createRequire } from 'node:module';
import type { Document, Model, WinkMethods } from 'wink-nlp';

interface Wink {
  /** Sentence boundaries, negation, sentiment and part of speech. */
  nlp: WinkMethods;
  its: WinkMethods['its'];
  /**
   * Tokenise only (no sentence, negation, sentiment or POS passes): indexing is several times
   * faster than through `nlp`.
   */
  tokenizer: WinkMethods;
  /**
   * The model's Porter stemmer — what `its.stem` calls on each token.
   * (wink-nlp's typings declare the addon `unknown`; this cast is the only one at that boundary.)
   */
  porter: (word: string) => string;
}

let shared: Wink | undefined;

/**
 * The shared wink-nlp instances, made on first use: a process or thread that reads no text (the
 * operator CLI, a worker process's main thread) never loads the model. Both packages are CommonJS.
 */
export function wink(): Wink {
  if (!shared) {
    const require = createRequire(import.meta.url);
    const winkNLP = require('wink-nlp') as (model: Model, pipe?: string[]) => WinkMethods;
    const model = require('wink-eng-lite-web-model') as Model;
    const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment', 'pos']);
    const porter = (model.addons as unknown as { stem: (word: string) => string }).stem;
    shared = { nlp, its: nlp.its, tokenizer: winkNLP(model, []), porter };
  }
  return shared;
}

/**
 * A wink-nlp document of `text`, read as a second reading reads it. wink-nlp adds every word it has
 * not seen to its lexicon when it first reads it, and that changes how it tokenises and splits
 * later: "super-common... But" is split after "super-common." the first time, read as one sentence
 * afterwards. Reading the text once to learn its own words makes a text read the same on its first
 * use as on its next ones: of 35,401 corpus texts read twice over, 26 split differently without
 * this, 6 with it (1.7 µs a word, against the encoder's 450). The rest is words learned from other
 * texts ("U.S" seen elsewhere changes how "the U.S. division" splits): wink-nlp's lexicon is one per
 * process and offers no way to read without learning, so a sentence boundary can still depend on
 * what the process read before, about once in 6,000 texts.
 */
export function readDocStable(nlp: WinkMethods, text: string): Document {
  nlp.readDoc(text);
  return nlp.readDoc(text);
}

/** Backchannel words: a sentence made only of these carries no content ("Yeah.", "Mm-hmm.", "Right."). */
const FILLER_WORDS = new Set([
  'yeah', 'yes', 'yep', 'yup', 'yah', 'ya', 'mm', 'mmm', 'hmm', 'hm', 'mhm', 'mm-hmm', 'mmhmm', 'uh-huh', 'uh',
  'um', 'er', 'erm', 'ah', 'oh', 'ok', 'okay', 'right', 'sure', 'exactly', 'totally', 'true', 'well', 'so',
  'cool', 'wow', 'nice', 'great', 'interesting', 'gotcha', 'huh', 'indeed', 'absolutely', 'definitely', 'alright',
  'all', 'got', 'it', 'i', 'see', 'you', 'know', 'and', 'but', 'anyway', 'yeah-yeah',
]);

/** Sentences with fewer words than this are fragments: attached to a neighbour. */
const MIN_WORDS = 3;
/** A sentence longer than this (unpunctuated captions) is cut into chunks. */
const MAX_WORDS = 60;
/** Target size of such chunks. */
const CHUNK_WORDS = 40;

const WORD_RE = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Words of a text, lower-cased (a light tokeniser, enough for counting and filler checks). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD_RE) ?? [];
}

/** True when a sentence contains nothing but filler words ("Yeah.", "Mm-hmm, right."). */
export function isFiller(sentence: string): boolean {
  return words(sentence).every((w) => FILLER_WORDS.has(w));
}

/** Collapse whitespace. */
function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A wink-nlp document's sentences, whitespace collapsed, empty ones dropped. */
function sentencesOf(doc: Document): string[] {
  return doc
    .sentences()
    .out()
    .map(clean)
    .filter((s) => s.length > 0);
}

/** A sentence of a text and where it is in that text: from its first character to just after its last. */
export interface SentenceSpan {
  text: string;
  from: number;
  to: number;
}

/**
 * Raw sentence boundaries from wink-nlp, each found in `text` (a cleaned text: wink-nlp's sentences
 * are pieces of it). One not found (never seen) is placed just after the previous one.
 */
function rawSentences(text: string): SentenceSpan[] {
  let cursor = 0;
  return sentencesOf(readDocStable(wink().nlp, text)).map((sentence) => {
    const found = text.indexOf(sentence, cursor);
    const from = found >= 0 ? found : Math.min(text.charAt(cursor) === ' ' ? cursor + 1 : cursor, text.length);
    const to = Math.min(from + sentence.length, text.length);
    cursor = to;
    return { text: sentence, from, to };
  });
}

/** Cut an overlong sentence into ~CHUNK_WORDS pieces, preferring to cut after a comma/semicolon/dash. */
function chunkLong(sentence: SentenceSpan): SentenceSpan[] {
  if (words(sentence.text).length <= MAX_WORDS) return [sentence];
  const tokens = sentence.text.split(' ');
  const pieces: SentenceSpan[] = [];
  // The tokens of the piece being gathered, where it begins in the sentence, where the next token does.
  let current: string[] = [];
  let offset = 0;
  let next = 0;
  const piece = (parts: readonly string[], at: number): SentenceSpan => {
    const text = parts.join(' ');
    const from = Math.min(sentence.from + at, sentence.to);
    return { text, from, to: Math.min(from + text.length, sentence.to) };
  };
  for (const token of tokens) {
    current.push(token);
    next += token.length + 1;
    const n = current.length;
    const softBreak = n >= CHUNK_WORDS && /[,;:–—-]$/.test(token);
    if (softBreak || n >= MAX_WORDS) {
      pieces.push(piece(current, offset));
      current = [];
      offset = next;
    }
  }
  if (current.length > 0) {
    // A tiny tail joins the previous piece rather than standing alone.
    const last = pieces.pop();
    const tail = piece(current, offset);
    if (last !== undefined && current.length < MIN_WORDS * 3) pieces.push(joined(last, tail));
    else {
      if (last !== undefined) pieces.push(last);
      pieces.push(tail);
    }
  }
  return pieces;
}

/** Two sentences as one: their texts joined by a space, from the first one's start to the second one's end. */
function joined(a: SentenceSpan, b: SentenceSpan): SentenceSpan {
  return { text: `${a.text} ${b.text}`, from: a.from, to: b.to };
}

/**
 * Merge short fragments into a neighbour: a fragment joins the sentence after it
 * ("No. I never do that." stays one memory); a trailing fragment joins the one before.
 */
function attachFragments(sentences: SentenceSpan[]): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let pending: SentenceSpan | null = null;
  for (const sentence of sentences) {
    const merged: SentenceSpan = pending ? joined(pending, sentence) : sentence;
    if (words(merged.text).length < MIN_WORDS) {
      pending = merged;
      continue;
    }
    out.push(merged);
    pending = null;
  }
  if (pending) {
    const last = out.pop();
    if (last !== undefined) out.push(joined(last, pending));
    else if (words(pending.text).length >= 2) out.push(pending); // a lone "Not really." survives, a lone "No." does not
  }
  return out;
}

/**
 * Split one utterance into memory-sized sentences.
 * Pure fillers are dropped, fragments attached to a neighbour, unpunctuated runs chunked.
 * Deterministic: same text, same sentences.
 */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => s.text);
}

/**
 * splitSentences, with where each sentence is in `text`: from its first word to its last (a sentence
 * joined from fragments spans the fillers dropped between them).
 */
export function sentenceSpans(text: string): SentenceSpan[] {
  const cleaned = clean(text);
  if (!cleaned) return [];
  const kept = rawSentences(cleaned)
    .filter((s) => !isFiller(s.text))
    .flatMap(chunkLong);
  const sentences = attachFragments(kept);
  if (cleaned === text) return sentences;
  const origin = cleanedOrigins(text);
  return sentences.map((s) => ({ text: s.text, from: origin[s.from] ?? 0, to: (origin[s.to - 1] ?? 0) + 1 }));
}

/** Where each character of clean(text) is in `text` (a run of whitespace: where the run starts). */
function cleanedOrigins(text: string): number[] {
  const origin: number[] = [];
  for (let i = text.search(/\S/); i >= 0 && i < text.length; i++) {
    origin.push(i);
    if (/\s/.test(text.charAt(i))) while (/\s/.test(text.charAt(i + 1))) i++;
  }
  return origin;
}

/** wink-nlp sentiment of a text, in [-1, 1] (0 = neutral). */
export function sentimentOf(text: string): number {
  const { nlp, its } = wink();
  const value = readDocStable(nlp, text).out(its.sentiment);
  return typeof value === 'number' ? value : Number(value) || 0;
}

// ---- Index terms (used by the retrieval index and the engine) ----

/**
 * The Porter stemmer applied to the token's normal form and memoised per word: stemming dominates
 * indexing time otherwise.
 */
const stemCache = new Map<string, string>();
function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    if (stemCache.size > 100_000) stemCache.clear();
    stemCache.set(word, (stemmed = wink().porter(word)));
  }
  return stemmed;
}

/** A content word of a text: its Porter stem (the index term) and its normal form. */
export interface TermToken {
  stem: string;
  word: string;
}

/** Words/numbers that are not wink stop words, with their stems, in order. */
function contentTokens(text: string): TermToken[] {
  const { tokenizer } = wink();
  const tokenIts = tokenizer.its;
  const tokens = readDocStable(tokenizer, text).tokens();
  const types = tokens.out(tokenIts.type) as string[];
  const stops = tokens.out(tokenIts.stopWordFlag) as boolean[];
  const normals = tokens.out(tokenIts.normal) as string[];
  const out: TermToken[] = [];
  normals.forEach((word, i) => {
    const isTerm = (types[i] === 'word' || types[i] === 'number') && !stops[i] && /^[\p{L}\p{N}]/u.test(word);
    if (!isTerm) return;
    const stemmed = stem(word);
    if (stemmed.length > 1) out.push({ stem: stemmed, word });
  });
  return out;
}

const contentStems = (text: string): string[] => contentTokens(text).map((t) => t.stem);

/**
 * Conversational and scenario-framing words that wink does not treat as stop words but that
 * carry no topic ("How would you feel if someone asks…", "I think it's kind of a thing").
 */
const EXTRA_STOP_WORDS = [
  'think feel felt say said tell respond react reaction situation scenario someone somebody person people',
  "thing things really actually kind sort stuff lot yeah okay ok mean guess know like get got go going i'm",
  'gonna wanna maybe probably basically literally obviously right sure happen happens ask asked asks',
].join(' ');
let extraStopStems: Set<string> | undefined;

/** Index tokens of a text: its content words with their stems (stop words and framing words removed), in order. */
export function termTokens(text: string): TermToken[] {
  const extra = (extraStopStems ??= new Set(contentStems(EXTRA_STOP_WORDS)));
  return contentTokens(text).filter((t) => !extra.has(t.stem));
}

/** Index terms of a text: stems of its content words (stop words and framing words removed), in order. */
export function terms(text: string): string[] {
  return termTokens(text).map((t) => t.stem);
}

const NOUN_TAGS = new Set(['NOUN', 'PROPN']);

/** Stems of the nouns and proper nouns of a text: what it is about ("football", "team", "Lisbon"). */
export function topicTerms(text: string): Set<string> {
  return readTagged(text).nouns;
}

/** A text read once by wink-nlp: its sentences, and the stems of its nouns and of its nouns and verbs. */
export interface TaggedText {
  sentences: string[];
  nouns: Set<string>;
  nounsAndVerbs: Set<string>;
}

export function readTagged(text: string): TaggedText {
  const { nlp, its } = wink();
  const doc = readDocStable(nlp, text);
  const tokens = doc.tokens();
  const pos = tokens.out(its.pos) as string[];
  const normals = tokens.out(its.normal) as string[];
  const nouns = new Set<string>();
  const nounsAndVerbs = new Set<string>();
  normals.forEach((word, i) => {
    const tag = pos[i] ?? '';
    if (NOUN_TAGS.has(tag)) nouns.add(stem(word));
    if (NOUN_TAGS.has(tag) || tag === 'VERB') nounsAndVerbs.add(stem(word));
  });
  return { sentences: sentencesOf(doc), nouns, nounsAndVerbs };
}

/** Stems of the proper nouns of a text ("Chicago", "Real Madrid"): names, which only match themselves. */
export function properNounStems(text: string): Set<string> {
  const { nlp, its } = wink();
  const tokens = readDocStable(nlp, text).tokens();
  const pos = tokens.out(its.pos) as string[];
  const normals = tokens.out(its.normal) as string[];
  return new Set(normals.flatMap((word, i) => (pos[i] === 'PROPN' ? [stem(word)] : [])));
}
