/**
 * The training and measurement corpus: `../shared/data/corpus` (1,732 Changelog episodes, CC BY-SA
 * 4.0, read in place, never copied). Each episode is read into turns (eval/interviews.ts), and every
 * speaker with at least MIN_PERSON_WORDS words in it is a person-episode: the mind the service would
 * build from that episode for that person. Their Q/A pairs are another speaker's turn that asks
 * something (holds a "?") followed by the person's answer of at least MIN_ANSWER_WORDS words.
 *
 * People are split by name (a hash of the name and the seed), so nobody is in two splits, however
 * many episodes they speak in: train (fit the ranking), validation (fit the calibration and choose),
 * test (report only).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseTurns, REPO_ROOT } from '../eval/interviews.ts';
import { buildMemoryBank, questionContext } from '../src/memory/build.ts';
import { continuesAnswer } from '../src/memory/build/passages.ts';
import type { Memory } from '../src/memory/types.ts';
import type { Turn } from '../testkit/fixtures.ts';

export const CORPUS_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data', 'corpus', 'changelog');
/** The corpus's own definition of a person (SOURCES.md, issue 22): at least 500 words in an episode. */
export const MIN_PERSON_WORDS = 500;
/** An answer worth predicting: the corpus's count of answering turns uses 25 words. */
export const MIN_ANSWER_WORDS = 25;

export type Split = 'train' | 'validation' | 'test';
/** Shares of people per split: the test split must hold ≥ 300 people (issue 22). */
export const SPLIT_SHARES: Record<Split, number> = { train: 0.45, validation: 0.2, test: 0.35 };

export interface QaExample {
  /** The asking turn, as the service keeps a question (its last sentences, ending at the question). */
  question: string;
  /** The answer's sentences: seq numbers in the person's memory bank (inclusive). */
  first: number;
  last: number;
  answer: string;
}

export interface PersonEpisode {
  /** `show/episode.md`, relative to the corpus folder. */
  file: string;
  person: string;
  split: Split;
  words: number;
  turns: Turn[];
  memories: Memory[];
  pairs: QaExample[];
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** The split of a person: a hash of their name and the seed, so the same on every machine and run. */
export function splitOf(person: string, seed: number): Split {
  const h = crypto.createHash('sha256').update(`${seed}:${person.trim().toLowerCase()}`).digest().readUInt32BE(0) / 2 ** 32;
  if (h < SPLIT_SHARES.train) return 'train';
  if (h < SPLIT_SHARES.train + SPLIT_SHARES.validation) return 'validation';
  return 'test';
}

/** Every episode file of the corpus, sorted. */
export function corpusFiles(dir = CORPUS_DIR): string[] {
  if (!fs.existsSync(dir)) throw new Error(`no corpus at ${path.relative(REPO_ROOT, dir)}`);
  return fs
    .readdirSync(dir)
    .flatMap((show) => {
      const folder = path.join(dir, show);
      return fs.statSync(folder).isDirectory() ? fs.readdirSync(folder).filter((f) => f.endsWith('.md')).map((f) => `${show}/${f}`) : [];
    })
    .sort();
}

/** The people of one episode with their memory banks and Q/A pairs. */
export function personEpisodes(file: string, seed: number, dir = CORPUS_DIR): PersonEpisode[] {
  const turns = parseTurns(fs.readFileSync(path.join(dir, file), 'utf8'));
  const words = new Map<string, number>();
  for (const t of turns) words.set(t.speaker, (words.get(t.speaker) ?? 0) + wordCount(t.text));
  const out: PersonEpisode[] = [];
  for (const [person, n] of words) {
    if (n < MIN_PERSON_WORDS) continue;
    const utterances = turns.map((t) => ({ speaker: t.speaker, text: t.text }));
    const bank = buildMemoryBank({ utterances, mindName: person, speaker: person });
    out.push({ file, person, split: splitOf(person, seed), words: n, turns, memories: bank.memories, pairs: qaPairs(turns, person, bank.memories) });
  }
  return out;
}

/** Answers of the person (≥ MIN_ANSWER_WORDS) to a turn that asks something, located in the memory bank. */
function qaPairs(turns: readonly Turn[], person: string, memories: readonly Memory[]): QaExample[] {
  // The memory bank's answers in order: runs of sentences under one question.
  const answers: Array<{ question: string | null; first: number; last: number }> = [];
  memories.forEach((m, i) => {
    const open = answers[answers.length - 1];
    if (open && continuesAnswer(memories[i - 1], m)) open.last = m.seq;
    else answers.push({ question: m.question, first: m.seq, last: m.seq });
  });
  const pairs: QaExample[] = [];
  let cursor = 0;
  turns.forEach((t, i) => {
    const next = turns[i + 1];
    if (t.speaker === person || next?.speaker !== person) return;
    const question = questionContext(t.text);
    if (!question) return;
    // The answer of the bank under this question, at or after the previous match.
    const at = answers.findIndex((a, k) => k >= cursor && a.question === question);
    if (at < 0) return;
    cursor = at + 1;
    const a = answers[at]!;
    if (!t.text.includes('?') || wordCount(next.text) < MIN_ANSWER_WORDS) return;
    pairs.push({ question, first: a.first, last: a.last, answer: next.text });
  });
  return pairs;
}
