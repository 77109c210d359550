/**
 * The offline engine: answers only from the person's own words.
 *
 * The learned search (memory/search: the encoder and BM25, ranked by the fitted model) finds the
 * answer of theirs that bears on the scenario, and the engine replies with a contiguous stretch of
 * it at the person's usual answer length, so `saying` reads as one reply, never a collage.
 * `thinking`, `feeling` and `acting` describe the same passages in plain language
 * (grounded-analysis.ts). The confidence is the calibrated one (memory/answer/confidence.ts); when
 * the scenario is off-topic (P(on-topic) below the fitted threshold) it says so. Never the
 * interviewer's words, never invented facts. Deterministic.
 */
import { userMessages, type Engine, type PartListener, type SimulationInput, type SimulationResult } from './types.ts';
import { passageEvidence } from './evidence.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { describeActing, describeFeeling, describeThinking, tidy } from './grounded-analysis.ts';
import { answerTyped, questionPhrases, questionScenario } from './grounded-questions.ts';
import type { QuestionInput, TypedAnswer } from './questions.ts';
import { LOW_CONFIDENCE, MORE_ANSWERS, RUNNER_UP_WORDS, SAYING_LENGTH_FACTOR, SAYING_MAX_WORDS, SAYING_MIN_WORDS } from '../memory/tuning.ts';
import { answerPassages, docRelevance } from '../memory/answer/passages.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import type { SearchResult } from '../memory/search/search.ts';

export { tidy } from './grounded-analysis.ts';

/** How many words of the person's own turn `saying` quotes for this mind (tuning.ts). */
export const sayingWords = (mind: MindMemory): number =>
  Math.min(SAYING_MAX_WORDS, Math.max(SAYING_MIN_WORDS, mind.typicalAnswerWords * SAYING_LENGTH_FACTOR));

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

  async simulate(input: SimulationInput, onPart?: PartListener): Promise<SimulationResult> {
    const found = await this.searcher.search(input.memory, input.scenario, userMessages(input.history));
    return answerFound(input.memory, found, this.searcher.params.declineBelow, onPart);
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
 * The answer from the learned search: the best answer's passage quoted at the person's usual
 * length, thinking/feeling/acting from it, the next answers' passages as evidence; the honest
 * decline when the scenario is off-topic (P(on-topic) below the fitted threshold) or the mind has
 * no passages (`found` null).
 */
export function answerFound(mind: MindMemory, found: SearchResult | null, declineBelow: number, onPart: PartListener = () => {}): SimulationResult {
  if (!found) return announced(unknownResult(0), onPart);
  const { ranking, confidence, onTopic } = found;
  if (ranking.answers.length === 0 || onTopic < declineBelow) return announced(unknownResult(confidence), onPart);
  const [passage = [], ...others] = [
    ...answerPassages(mind, ranking, 1, sayingWords(mind)),
    ...answerPassages(mind, { ...ranking, answers: ranking.answers.slice(1) }, MORE_ANSWERS, RUNNER_UP_WORDS),
  ];
  const saying = passage.map((d) => tidy(mind.memories[d]?.text ?? '')).join(' ');
  onPart({ kind: 'part', field: 'saying', text: saying });
  const thinking = describeThinking(mind, passage);
  onPart({ kind: 'part', field: 'thinking', text: thinking.text });
  const feeling = describeFeeling(mind, passage);
  onPart({ kind: 'part', field: 'feeling', text: feeling.text });
  const acting = describeActing(mind, passage, others.flat());
  onPart({ kind: 'part', field: 'acting', text: acting.text });
  const message = confidence >= LOW_CONFIDENCE ? saying : `${LOW_CONFIDENCE_LEAD} ${saying}`;
  const relevance = docRelevance(ranking);
  const passages = [passage, ...others];
  const covered = new Set(passages.flat());
  const rest = [...new Set([...thinking.used, ...feeling.used, ...acting.used])].filter((d) => !covered.has(d)).map((d) => [d]);
  const evidence = [...passages, ...rest].map((docs) => passageEvidence(mind, relevance, docs));
  onPart({ kind: 'evidence', evidence });
  return { message, analysis: { thinking: thinking.text, feeling: feeling.text, saying, acting: acting.text }, confidence, evidence };
}

/** A result composed at once (the honest decline), told part by part like any other. */
function announced(result: SimulationResult, onPart: PartListener): SimulationResult {
  for (const field of ['saying', 'thinking', 'feeling', 'acting'] as const) onPart({ kind: 'part', field, text: result.analysis[field] });
  onPart({ kind: 'evidence', evidence: result.evidence });
  return result;
}
