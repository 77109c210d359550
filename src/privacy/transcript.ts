/**
 * Redaction of a transcript at ingestion, in the analysis thread: every utterance (the person's
 * and the interviewer's) as one batch, so a third party has one number throughout and in every
 * snapshot of the mind (`known`: the mind's numbers read before; new ones come back as `assigned`
 * for the caller to store). `stored`: the texts are replaced before the memory bank, the passages,
 * the profile and the parsed transcript are made from them. `outbound`: only counted (the
 * profile says what every prompt will have replaced).
 */
import type { RedactionCounts, RedactionMode } from './kinds.ts';
import { redactWithKnownNumbers } from './redactor.ts';

export interface IngestionRedaction {
  mode: RedactionMode;
  key: string;
  known: Array<[string, number]>;
}

export interface RedactedTranscript<U> {
  utterances: U[];
  counts: RedactionCounts;
  assigned: Array<[string, number]>;
}

export function redactUtterances<U extends { speaker: string | null; text: string; spans?: Array<{ at: number }> }>(
  utterances: readonly U[],
  redaction: IngestionRedaction,
  names: ReadonlyArray<string | null>,
): RedactedTranscript<U> {
  const speakers = [...new Set([...names, ...utterances.map((u) => u.speaker)])];
  const { texts, counts, assigned, found } = redactWithKnownNumbers(
    utterances.map((u) => u.text),
    { speakers, key: redaction.key, known: redaction.known },
  );
  if (redaction.mode !== 'stored') return { utterances: [...utterances], counts, assigned: [] };
  return {
    utterances: utterances.map((u, i) => {
      const spans = found[i] ?? [];
      const text = texts[i] ?? u.text;
      if (spans.length === 0) return u;
      return { ...u, text, ...(u.spans ? { spans: u.spans.map((s) => ({ ...s, at: shifted(s.at, spans, text) })) } : {}) };
    }),
    counts,
    assigned,
  };
}

/** Where an offset of the original text lands in the redacted one (inside a replaced value: at its placeholder's start). */
function shifted(at: number, spans: ReadonlyArray<{ start: number; end: number }>, redacted: string): number {
  let delta = 0;
  let cursor = 0; // position in the redacted text of the end of the last replacement before `at`
  for (const s of spans) {
    if (s.start >= at) break;
    const placeholderEnd = redacted.indexOf(']', s.start + delta) + 1;
    if (at < s.end) return s.start + delta;
    cursor = placeholderEnd;
    delta = placeholderEnd - s.end;
  }
  return Math.max(cursor, at + delta);
}
