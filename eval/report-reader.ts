/**
 * EVAL.md's "What a reader sees": the reader check (eval/reader-check.ts) over every answered
 * scenario of the suite (declined ones left out), per format and overall; the phrases that recur in
 * more than half of the answers are found over the whole run.
 */
import { checkRun, FILLER_WORDS, runFiller, type CheckedAnswer } from './reader-check.ts';
import type { ScenarioOutcome } from './scenarios.ts';

const answersOf = (outcomes: readonly ScenarioOutcome[]): CheckedAnswer[] => outcomes.flatMap((o) => (o.read ? [o.read] : []));

/** The run's counts: answers checked, and those with a field repeating another, a cut saying, filler. */
export function readerCounts(outcomes: readonly ScenarioOutcome[], recurring?: readonly string[]) {
  return checkRun(answersOf(outcomes), recurring);
}

/** The target row: every count 0. */
export function readerTarget(outcomes: readonly ScenarioOutcome[]): string {
  const r = readerCounts(outcomes);
  const met = r.checked > 0 && r.sharedWords === 0 && r.cutSayings === 0 && r.filler === 0;
  return (
    `| what a reader sees: no answer with a field sharing half its content words with another, no saying cut inside a sentence, no template filler | ` +
    `${r.sharedWords}, ${r.cutSayings} and ${r.filler} of ${r.checked} answered | ${met ? '**met**' : '**not met**'} |`
  );
}

export function readerSection(groups: ReadonlyArray<readonly [string, readonly ScenarioOutcome[]]>, all: readonly ScenarioOutcome[]): string[] {
  const recurring = runFiller(answersOf(all));
  return [
    '## What a reader sees',
    '',
    'Every answered scenario of the suite (the declined ones left out), checked by eval/reader-check.ts: a field that shares half',
    'of its content words (stems, stop words left out) with another field, |A ∩ B| / min(|A|, |B|) ≥ 0.5; a `saying` cut',
    'inside a sentence (no sentence end, ",." inside or at its end, or its last word "and", "the", "because"…); template',
    `filler (the old engine's stock phrases outside quotation marks, unless the person said them, and any phrase of ${FILLER_WORDS}`,
    'words outside quotation marks that recurs in more than half of the answers of the run). `node --conditions=mindsim-source',
    'eval/reader-samples.ts` prints twelve answers drawn by a seed, in full.',
    '',
    '| | answers checked | with a shared-words field | cut sayings | with filler |',
    '|---|---:|---:|---:|---:|',
    ...groups.map(([label, outcomes]) => {
      const r = readerCounts(outcomes, recurring);
      return `| ${label} | ${r.checked} | ${r.sharedWords} | ${r.cutSayings} | ${r.filler} |`;
    }),
    '',
    `Phrases recurring in more than half of the answers: ${recurring.length ? recurring.map((p) => `"${p}"`).join(', ') : 'none'}.`,
    '',
  ];
}
