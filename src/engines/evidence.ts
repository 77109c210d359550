import { countPlaceholders, hasCounts, type RedactionCounts } from '../privacy/kinds.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import type { StoredMemory } from '../memory/types.ts';
import type { EvidenceItem } from './types.ts';
import { roundScore } from '../memory/answer/scores.ts';

/** `{redactions}` when a quoted text holds redaction placeholders (stored mode), else nothing. */
function placeholdersIn(text: string): { redactions?: RedactionCounts } {
  if (!text.includes('[')) return {};
  const counts = countPlaceholders(text);
  return hasCounts(counts) ? { redactions: counts } : {};
}

/** Scores and confidences are reported to three decimals (memory/answer/scores.ts owns the rounding). */
export const round3 = roundScore;

/** A memory as the evidence of an answer: its text and source, without the fields it lacks. */
export function evidenceItem(m: StoredMemory, score: number): EvidenceItem {
  return {
    text: m.text,
    speaker: m.speaker,
    snapshotId: m.snapshotId,
    ...(m.start !== null ? { start: m.start } : {}),
    ...(m.end !== null ? { end: m.end } : {}),
    ...(m.page !== null ? { page: m.page } : {}),
    score: round3(score),
    source: 'transcript',
    ...placeholdersIn(m.text),
  };
}

/** A contiguous passage of the person's sentences as one evidence item: their text, from the first one's start to the last one's end. */
export function passageItem(passage: readonly StoredMemory[], score: number): EvidenceItem {
  const first = passage[0];
  const last = passage[passage.length - 1];
  if (!first || !last) throw new Error('an empty passage');
  const item = evidenceItem(first, score);
  item.text = passage.map((m) => m.text).join(' ');
  if (last.end !== null) item.end = last.end;
  const counted = placeholdersIn(item.text);
  if (counted.redactions) item.redactions = counted.redactions;
  else delete item.redactions;
  return item;
}

/** A passage of a mind (doc numbers, in order) as one evidence item, scored by its most relevant retrieved sentence. */
export function passageEvidence(mind: MindMemory, relevance: ReadonlyMap<number, number>, docs: readonly number[]): EvidenceItem {
  return passageItem(mind.memoriesAt(docs), Math.max(0, ...docs.map((d) => relevance.get(d) ?? 0)));
}
