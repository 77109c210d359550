/**
 * The offline engine's wording of a composed answer (memory/answer/compose.ts): the person's
 * sentences quoted as they said them (in quotation marks, tidied of "uh" and a leading "So,"), and
 * around them only what the reader needs: the view named in one plain sentence (their own, reported
 * in the third person: "They think it's mostly unnecessary."), a word for their stance, a word for
 * what kind of deed they state, or one honest sentence where they have said nothing of the kind.
 */
import type { ComposedAnswer, Tone } from '../memory/answer/compose.ts';
import type { Candidate } from '../memory/answer/candidates.ts';
import { sentenceText, spokenSentences } from '../memory/answer/spoken-sentences.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { reported } from '../memory/text/reported.ts';
import { tidy } from '../memory/text/tidy.ts';
import type { SimulationAnalysis } from './types.ts';

export { tidy } from '../memory/text/tidy.ts';

/** Quotation marks inside a quote become single ones. */
const nested = (text: string): string => text.replace(/"/g, "'").replace(/“/g, '‘').replace(/”/g, '’');

/** Sentences as quotes, those that follow each other in one quote: "A B" "C". */
function quotes(cs: readonly Candidate[]): string {
  const runs: Candidate[][] = [];
  const next = (a: Candidate, b: Candidate) => (b.docs[0] === a.docs[0] ? b.part === a.part + 1 : a.part === a.parts - 1 && b.part === 0 && b.docs[0] === (a.docs.at(-1) ?? -2) + 1);
  for (const c of [...cs].sort((a, b) => (a.docs[0] ?? 0) - (b.docs[0] ?? 0) || a.part - b.part)) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && next(last, c)) run.push(c);
    else runs.push([c]);
  }
  return runs.map((run) => `"${run.map((c) => nested(tidy(c.text))).join(' ')}"`).join(' ');
}

/** The saying: the person's sentences, each tidied, as one reply. */
export function sayingText(mind: MindMemory, docs: readonly number[]): string {
  return spokenSentences(mind, docs)
    .map((s) => tidy(sentenceText(mind, s)))
    .join(' ');
}

function thinkingText(a: ComposedAnswer): string {
  const lead = a.view ? reported(a.view.text) : null;
  const said = quotes(a.reasons);
  if (lead && said) return `${lead} ${said}`;
  if (lead) return lead;
  if (said) return `Why, in their words: ${said}`;
  return a.reasonInSaying ? 'Why is in what they say above.' : 'They have not said why.';
}

const TONE: Record<Tone, string> = { positive: 'Positive', uneasy: 'Uneasy', mixed: 'Mixed', calm: 'Matter-of-fact' };

function feelingText(a: ComposedAnswer): string {
  const [first, second] = a.feeling;
  if (a.tone === 'mixed' && first && second) return `Mixed: ${quotes([first])}, and yet ${quotes([second])}`;
  if (first) return `${TONE[a.tone]}: ${quotes([first])}`;
  return a.tone === 'calm' ? 'Matter-of-fact: they show no strong feeling about it.' : `${TONE[a.tone]}, in what they say.`;
}

const DEEDS = [
  ['habit', 'What they do'],
  ['did', 'What they did'],
  ['would', 'What they would do'],
] as const;

function actingText(a: ComposedAnswer): string {
  if (a.actingInSaying) return 'What they do is in what they say above.';
  const told = DEEDS.map(([deed, label]) => [label, a.acting.filter((c) => c.deed === deed)] as const).filter(([, cs]) => cs.length > 0);
  if (told.length === 0) return 'They have not said what they do in a situation like this.';
  return told.map(([label, cs]) => `${label}: ${quotes(cs)}`).join(' ');
}

/** The four fields of a composed answer. */
export function analysisText(mind: MindMemory, a: ComposedAnswer): SimulationAnalysis {
  return { saying: sayingText(mind, a.saying), thinking: thinkingText(a), feeling: feelingText(a), acting: actingText(a) };
}
