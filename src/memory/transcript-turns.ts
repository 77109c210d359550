/**
 * The parsed transcript as turns, kept with the snapshot (its details show them): consecutive
 * utterances of one speaker joined into a turn, each marked as the person's or not. Utterances
 * nobody is named for (a monologue, a preamble) stay one turn each. Pure function of the
 * transcript and the chosen person.
 */
import type { Utterance } from '../ingest/transcript.ts';
import { effectiveSpeakers, sameSpeaker } from './speakers.ts';

export interface TranscriptTurn {
  speaker: string | null;
  text: string;
  /** Seconds from the start of the recording (VTT cues, DOCX timestamps): the turn's first and last utterance. */
  start?: number;
  end?: number;
  /** 1-based page of the turn's first line (PDF). */
  page?: number;
  /** Whether these are the person's words (the speaker whose words became the mind's memories). */
  isPerson: boolean;
}

/** At most this many characters of turn text are kept per snapshot (the transcript is at most 150,000 words). */
export const MAX_TRANSCRIPT_CHARS = 1_500_000;
/** At most this many turns are kept per snapshot. */
export const MAX_TRANSCRIPT_TURNS = 25_000;

/** Every turn of the transcript; `person` null means nobody is named and all the words are the person's. */
export function transcriptTurns(utterances: readonly Utterance[], person: string | null): TranscriptTurn[] {
  const speakers = effectiveSpeakers(utterances);
  const turns: TranscriptTurn[] = [];
  let open: TranscriptTurn | null = null;
  utterances.forEach((u, i) => {
    const speaker = speakers[i] ?? null;
    const text = u.text.trim();
    if (!text) return;
    if (open && speaker !== null && sameSpeaker(open.speaker, speaker)) {
      open.text = `${open.text} ${text}`;
      if (u.end !== undefined) open.end = u.end;
      return;
    }
    open = { speaker, text, isPerson: person === null || sameSpeaker(speaker, person) };
    if (u.start !== undefined) open.start = u.start;
    if (u.end !== undefined) open.end = u.end;
    if (u.page !== undefined) open.page = u.page;
    turns.push(open);
  });
  return turns;
}

/** The turns kept with a snapshot: the first ones within MAX_TRANSCRIPT_TURNS and MAX_TRANSCRIPT_CHARS. */
export function boundedTurns(turns: readonly TranscriptTurn[]): { turns: TranscriptTurn[]; truncated: boolean } {
  const kept: TranscriptTurn[] = [];
  let chars = 0;
  for (const t of turns) {
    chars += t.text.length;
    if (kept.length >= MAX_TRANSCRIPT_TURNS || chars > MAX_TRANSCRIPT_CHARS) return { turns: kept, truncated: true };
    kept.push(t);
  }
  return { turns: kept, truncated: false };
}
