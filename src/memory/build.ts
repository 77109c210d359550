/**
 * Transcript → memory bank: the person's utterances, cut into sentence-level memories,
 * each carrying its source position and the question it answered.
 *
 * Only the person's words become memories. Other speakers' turns are only ever used as
 * `question` context. Pure function of its input (deterministic).
 */
import type { Utterance } from '../ingest/transcript.ts';
import type { Memory, MemoryBank, MemoryBankInput } from './types.ts';
import { choosePerson, effectiveSpeakers, sameSpeaker } from './speakers.ts';
import { sentenceSpans, splitSentences } from './sentences.ts';
import { spanAt } from '../ingest/spans.ts';

/** Longest question context kept on a memory, in characters. */
export const MAX_QUESTION_CHARS = 300;

/**
 * The part of an interviewer's turn worth keeping as context: its last sentences up to
 * MAX_QUESTION_CHARS, ending at the last question when there is one. Null when the turn
 * is only backchannel ("Mm-hmm.", "Right.") — then the previous question still applies.
 */
export function questionContext(turnText: string): string | null {
  const sentences = splitSentences(turnText);
  let lastQuestion = -1;
  sentences.forEach((s, i) => {
    if (s.includes('?')) lastQuestion = i;
  });
  const end = lastQuestion >= 0 ? lastQuestion : sentences.length - 1;
  if (end < 0) return null;
  let picked = '';
  for (let i = end; i >= 0; i--) {
    const sentence = sentences[i] ?? '';
    const candidate = picked ? `${sentence} ${picked}` : sentence;
    if (candidate.length > MAX_QUESTION_CHARS) break;
    picked = candidate;
  }
  return picked || truncateStart(sentences[end] ?? '', MAX_QUESTION_CHARS);
}

/** Keep the last `max` characters of a long sentence, cut at a word boundary, marked with "…". */
function truncateStart(text: string, max: number): string {
  const tail = text.slice(text.length - (max - 1));
  const space = tail.indexOf(' ');
  return `…${space >= 0 ? tail.slice(space + 1) : tail}`;
}

/** Consecutive utterances by the same (effective) speaker. */
interface Turn {
  speaker: string | null;
  utterances: Utterance[];
}

function groupTurns(utterances: readonly Utterance[], speakers: ReadonlyArray<string | null>): Turn[] {
  const turns: Turn[] = [];
  utterances.forEach((u, i) => {
    const speaker = speakers[i] ?? null;
    const last = turns[turns.length - 1];
    if (last && sameSpeaker(last.speaker, speaker)) last.utterances.push(u);
    else turns.push({ speaker, utterances: [u] });
  });
  return turns;
}

/** Memories from one of the person's utterances, seq left for the caller to assign. */
function utteranceMemories(u: Utterance, speaker: string | null, question: string | null): Array<Omit<Memory, 'seq'>> {
  return sentenceSpans(u.text).map(({ text, from, to }) => ({ speaker, text, ...sourceOf(u, from, to), question }));
}

/**
 * Where the sentence at `from`–`to` of an utterance was said: the start (and page) of the piece
 * holding its first word to the end of the piece holding its last (a cue, a timestamped paragraph, a
 * page); the utterance's own when it came in one piece.
 */
function sourceOf(u: Utterance, from: number, to: number): Pick<Memory, 'start' | 'end' | 'page'> {
  const first = u.spans && spanAt(u.spans, from);
  const last = u.spans && spanAt(u.spans, to - 1);
  if (!first || !last) return { start: u.start ?? null, end: u.end ?? null, page: u.page ?? null };
  return { start: first.start ?? null, end: last.end ?? null, page: first.page ?? null };
}

/**
 * Build the memory bank of the person (see `choosePerson` for who that is).
 * When no utterance is labelled, all text is the person's and memories have no question.
 */
export function buildMemoryBank(input: MemoryBankInput): MemoryBank {
  const { utterances, mindName, speaker } = input;
  const person = choosePerson(utterances, mindName, speaker);
  const speakers = person === null ? utterances.map(() => null) : effectiveSpeakers(utterances);
  const memories: Memory[] = [];
  let question: string | null = null;
  for (const turn of groupTurns(utterances, speakers)) {
    if (!sameSpeaker(turn.speaker, person)) {
      // Someone else's turn (or an unattributed preamble): context only, never a memory.
      if (turn.speaker !== null) question = questionContext(turn.utterances.map((u) => u.text).join(' ')) ?? question;
      continue;
    }
    for (const u of turn.utterances) {
      for (const m of utteranceMemories(u, person, question)) memories.push({ ...m, seq: memories.length });
    }
  }
  return { person, memories };
}
