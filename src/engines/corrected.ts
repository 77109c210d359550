/**
 * An answer led by the person's own correction (issue 32): when a correction answers the scenario
 * (memory/search/corrections.ts), its answer is what they say, first in `saying` and first in the
 * evidence (`source: "correction"`, its `correctionId`), and the answer says that it is their own
 * correction over what the transcript says. The transcript's evidence follows it, as it was.
 */
import type { CorrectionMatch } from '../memory/search/corrections.ts';
import { CORRECTION_CONFIDENCE } from '../memory/search/corrections.ts';
import { countPlaceholders, hasCounts } from '../privacy/kinds.ts';
import { round3 } from './evidence.ts';
import type { EvidenceItem, PartListener, SimulationResult } from './types.ts';

/** At most this many words of the transcript's answer are recalled in `thinking`. */
const RECALLED_WORDS = 40;

const clipped = (text: string, words: number): string => {
  const all = text.split(/\s+/).filter(Boolean);
  return all.length <= words ? all.join(' ') : `${all.slice(0, words).join(' ')}…`;
};

/** The correction as the evidence quotes it. */
export function correctionEvidence(mindName: string, match: CorrectionMatch): EvidenceItem {
  const counts = countPlaceholders(match.correction.answer);
  return {
    text: match.correction.answer,
    speaker: mindName,
    snapshotId: null,
    score: round3(match.similarity),
    source: 'correction',
    correctionId: match.correction.id,
    ...(hasCounts(counts) ? { redactions: counts } : {}),
  };
}

/**
 * `base` (the answer from the transcript alone) led by the best correction: `saying` is the
 * correction's answer, `thinking` says it is their own correction and what the transcript had them
 * say, `feeling` and `acting` stay the transcript's when it answered (else they point to the
 * correction), the correction is the first evidence item. `declined`: the transcript had nothing.
 */
export function correctedResult(base: SimulationResult, declined: boolean, mindName: string, matches: readonly CorrectionMatch[]): SimulationResult {
  const best = matches[0];
  if (!best) return base;
  const saying = best.correction.answer;
  const thinking = declined
    ? `This is ${mindName}'s own correction: what they would really say to this. Their transcript says nothing on it.`
    : `This is ${mindName}'s own correction, and it stands over what the transcript says on this point (there, they said: "${clipped(base.analysis.saying, RECALLED_WORDS)}").`;
  const analysis = {
    thinking,
    feeling: declined ? 'How they feel about it is in their own correction above.' : base.analysis.feeling,
    saying,
    acting: declined ? 'What they would do is in their own correction above.' : base.analysis.acting,
  };
  const evidence = [...matches.map((m) => correctionEvidence(mindName, m)), ...base.evidence];
  return { ...base, message: saying, analysis, confidence: round3(Math.max(base.confidence, CORRECTION_CONFIDENCE)), evidence };
}

/** Tells a finished result part by part, as a streamed answer is told. */
export function announce(result: SimulationResult, onPart: PartListener = () => {}): SimulationResult {
  for (const field of ['saying', 'thinking', 'feeling', 'acting'] as const) onPart({ kind: 'part', field, text: result.analysis[field] });
  onPart({ kind: 'evidence', evidence: result.evidence });
  return result;
}
