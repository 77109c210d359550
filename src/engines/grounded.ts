/**
 * The offline engine: answers only from the person's own words.
 *
 * The learned search (memory/search: the encoder and BM25, ranked by the fitted model) finds what the
 * person said that bears on the scenario, and the answer stage (memory/answer/compose.ts) chooses
 * what each field quotes: `saying` a contiguous stretch of their best answer at their usual answer
 * length, in whole sentences; `thinking` their reasons, `feeling` their stance, `acting` what they do,
 * each from other sentences of theirs. This engine words that (grounded-analysis.ts). The confidence
 * is the calibrated one (memory/answer/confidence.ts); when the scenario is off-topic (P(on-topic)
 * below the fitted threshold) it says so. Never the interviewer's words, never invented facts.
 * Deterministic.
 */
import { userMessages, type Engine, type PartListener, type SimulationInput, type SimulationResult } from './types.ts';
import { passageEvidence } from './evidence.ts';
import { announce, correctedResult } from './corrected.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { analysisText } from './grounded-analysis.ts';
import { answerTyped, questionPhrases, questionScenario } from './grounded-questions.ts';
import type { QuestionInput, TypedAnswer } from './questions.ts';
import { LOW_CONFIDENCE } from '../memory/tuning.ts';
import { composeAnswer } from '../memory/answer/compose.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import type { SearchResult } from '../memory/search/search.ts';

export { tidy } from './grounded-analysis.ts';
export { sayingWords } from '../memory/answer/compose.ts';

export const UNKNOWN_SAYING = "I haven't talked about that, so I can't say how I'd respond.";
const LOW_CONFIDENCE_LEAD = "I haven't spoken to exactly this, but here's the closest thing I've said.";

/** The honest answer when nothing the person said bears on the scenario. */
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

export class GroundedEngine implements Engine {
  readonly searcher: Searcher;
  constructor(searcher: Searcher) {
    this.searcher = searcher;
  }

  /** The answer from the transcript; led by the person's own correction when one answers the scenario (corrected.ts). */
  async simulate(input: SimulationInput, onPart?: PartListener): Promise<SimulationResult> {
    const [found, matches] = await Promise.all([
      this.searcher.search(input.memory, input.scenario, userMessages(input.history)),
      this.searcher.corrections(input.scenario, input.corrections),
    ]);
    if (matches.length === 0) return answerFound(input.memory, found, this.searcher.params.declineBelow, onPart);
    const base = answerFound(input.memory, found, this.searcher.params.declineBelow);
    return announce(correctedResult(base, base.evidence.length === 0, input.mindName, matches), onPart);
  }

  /**
   * A typed question (panels), from the person's own words or `no_evidence` (grounded-questions.ts).
   * The question and its phrases (options, subject) are embedded once for every mind of a panel (the Searcher's LRU).
   */
  async answerQuestion(input: QuestionInput): Promise<TypedAnswer> {
    const q = input.question;
    const [found, vectors] = await Promise.all([this.searcher.search(input.memory, questionScenario(q)), this.searcher.phraseVectors(questionPhrases(q))]);
    return answerTyped(input.memory, q, found, vectors, this.searcher.params);
  }
}

/**
 * The answer from the learned search, as the answer stage composes it (memory/answer/compose.ts),
 * worded; the honest decline when the scenario is off-topic (P(on-topic) below the fitted threshold)
 * or the mind has no passages (`found` null).
 */
export function answerFound(mind: MindMemory, found: SearchResult | null, declineBelow: number, onPart: PartListener = () => {}): SimulationResult {
  const composed = composeAnswer(mind, found, declineBelow);
  if (composed.declined) return announce(unknownResult(composed.confidence), onPart);
  const analysis = analysisText(mind, composed);
  for (const field of ['saying', 'thinking', 'feeling', 'acting'] as const) onPart({ kind: 'part', field, text: analysis[field] });
  const evidence = composed.passages.map((docs) => passageEvidence(mind, composed.relevance, docs));
  onPart({ kind: 'evidence', evidence });
  const { confidence } = composed;
  const message = confidence >= LOW_CONFIDENCE ? analysis.saying : `${LOW_CONFIDENCE_LEAD} ${analysis.saying}`;
  return { message, analysis, confidence, evidence };
}
