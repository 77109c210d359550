/**
 * The offline engine: answers only from the person's own words.
 *
 * It retrieves the answer of theirs that bears on the scenario (memory/retrieval.ts: BM25 and
 * word vectors, the ask first, the context to choose), and replies with a contiguous stretch of
 * it — leading with the sentence that answers the ask, at the person's usual answer length —
 * so `saying` reads as one reply, never a collage. `thinking`, `feeling` and `acting` describe
 * the same passages in plain language (grounded-analysis.ts). Confidence comes from the
 * retrieval's signals (memory/confidence.ts); when nothing the person said bears on the ask it
 * says so. Never the interviewer's words, never invented facts. Deterministic.
 */
import { userMessages, type Engine, type EvidenceItem, type PartListener, type SimulationInput, type SimulationResult } from './types.ts';
import { passageEvidence } from './evidence.ts';
import { confidenceOf } from '../memory/confidence.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { passageOf, relevanceOf, retrieve, type Retrieval } from '../memory/retrieval.ts';
import { describeActing, describeFeeling, describeThinking, tidy } from './grounded-analysis.ts';
import { answerTyped } from './grounded-questions.ts';
import type { QuestionInput, TypedAnswer } from './questions.ts';
import {
  LEGACY_DECLINE_BELOW,
  LOW_CONFIDENCE,
  MORE_ANSWERS,
  RUNNER_UP_WORDS,
  SAYING_LENGTH_FACTOR,
  SAYING_MAX_WORDS,
  SAYING_MIN_WORDS,
} from '../memory/tuning.ts';
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
  private readonly searcher: Searcher | null;
  /** With a Searcher, minds whose snapshots have passage vectors are answered by the learned search. */
  constructor(searcher: Searcher | null = null) {
    this.searcher = searcher;
  }

  async simulate(input: SimulationInput, onPart?: PartListener): Promise<SimulationResult> {
    const found = this.searcher ? await this.searcher.search(input.memory, input.scenario, userMessages(input.history)) : null;
    if (found && this.searcher) return this.answerFound(input.memory, found, this.searcher.params.declineBelow, onPart);
    return this.answer(input, onPart);
  }

  /**
   * The answer from the learned search (memory/search): the best answer's passage quoted at the
   * person's usual length, thinking/feeling/acting from it, the next answers' passages as evidence;
   * the honest decline when the scenario is off-topic (P(on-topic) below the fitted threshold).
   */
  answerFound(mind: MindMemory, found: SearchResult, declineBelow: number, onPart: PartListener = () => {}): SimulationResult {
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

  /** A typed question (panels), from the person's own words or `no_evidence` (grounded-questions.ts). */
  async answerQuestion(input: QuestionInput): Promise<TypedAnswer> {
    return answerTyped(input.memory, input.question);
  }

  /** Synchronous core of `simulate`; `onPart` hears each field as soon as it is composed, then the evidence. */
  answer(input: SimulationInput, onPart: PartListener = () => {}): SimulationResult {
    const mind = input.memory;
    const retrieval = retrieve(mind, input.scenario, userMessages(input.history));
    const best = retrieval.answers[0];
    const confidence = confidenceOf(retrieval.signals, mind.semantic !== null);
    if (!best || confidence < LEGACY_DECLINE_BELOW) return announced(unknownResult(Math.min(confidence, LEGACY_DECLINE_BELOW)), onPart);
    const passage = passageOf(mind, best, sayingWords(mind));
    const saying = passage.map((d) => tidy(mind.memories[d]?.text ?? '')).join(' ');
    onPart({ kind: 'part', field: 'saying', text: saying });
    const answers = retrieval.answers.slice(0, 1 + MORE_ANSWERS);
    const pool = answers.flatMap((a) => [a.lead, ...a.support.slice(0, 2)].map((r) => r.doc));
    const thinking = describeThinking(mind, passage);
    onPart({ kind: 'part', field: 'thinking', text: thinking.text });
    const feeling = describeFeeling(mind, passage);
    onPart({ kind: 'part', field: 'feeling', text: feeling.text });
    const acting = describeActing(mind, passage, pool);
    onPart({ kind: 'part', field: 'acting', text: acting.text });
    const message = confidence >= LOW_CONFIDENCE ? saying : `${LOW_CONFIDENCE_LEAD} ${saying}`;
    const evidence = evidenceOf(mind, retrieval, passage, [...thinking.used, ...feeling.used, ...acting.used]);
    onPart({ kind: 'evidence', evidence });
    return { message, analysis: { thinking: thinking.text, feeling: feeling.text, saying, acting: acting.text }, confidence, evidence };
  }
}

/** A result composed at once (the honest decline), told part by part like any other. */
function announced(result: SimulationResult, onPart: PartListener): SimulationResult {
  for (const field of ['saying', 'thinking', 'feeling', 'acting'] as const) onPart({ kind: 'part', field, text: result.analysis[field] });
  onPart({ kind: 'evidence', evidence: result.evidence });
  return result;
}

/**
 * The evidence, best first: the passage quoted, the best passages of the next answers, then any
 * other sentence thinking, feeling or acting drew on. Each passage is one item (contiguous text).
 */
function evidenceOf(mind: MindMemory, retrieval: Retrieval, passage: readonly number[], described: readonly number[]): EvidenceItem[] {
  const relevance = new Map(retrieval.ranked.map((r) => [r.doc, relevanceOf(r)]));
  const passages = [passage, ...retrieval.answers.slice(1, 1 + MORE_ANSWERS).map((a) => passageOf(mind, a, RUNNER_UP_WORDS))];
  const covered = new Set(passages.flat());
  const rest = [...new Set(described)].filter((d) => !covered.has(d)).map((d) => [d]);
  return [...passages, ...rest].map((docs) => passageEvidence(mind, relevance, docs));
}
