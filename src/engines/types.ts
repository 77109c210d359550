import type { RedactionCounts } from '../privacy/kinds.ts';
import type { TextRedaction } from './llm-redacting.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import type { CorrectionMemory } from '../memory/search/corrections.ts';
import type { QuestionInput, TypedAnswer } from './questions.ts';
import type { EngineContext, EvidenceItem } from './engine-context.ts';

export type { EngineContext, EvidenceItem, Reflection } from './engine-context.ts';

export interface SimulationAnalysis {
  thinking: string;
  feeling: string;
  saying: string;
  acting: string;
}

export interface SimulationResult {
  message: string;
  analysis: SimulationAnalysis;
  confidence: number;
  evidence: EvidenceItem[];
  /** What redaction replaced in what was sent to the LLM provider for this answer (LLM engine, redaction on). */
  redactions?: RedactionCounts;
}

export interface SimulationInput {
  mindName: string;
  /** The mind's memory: its memories and their indexes, for one exact set of completed snapshots. */
  memory: MindMemory;
  scenario: string;
  /**
   * The earlier turns of the conversation, oldest first (already bounded by the caller): retrieval
   * leans on the earlier messages to the person, the LLM prompt shows the whole exchange.
   */
  history?: ConversationTurn[];
  /** Profile and expert reflections, given to engines that ask for them (`wantsContext`). */
  context?: EngineContext;
  /**
   * The mind's corrections (issue 32), oldest first: searched with the passages; one that answers the
   * scenario leads the answer (engines/corrected.ts).
   */
  corrections?: readonly CorrectionMemory[];
  /** The mind's redaction when it is on: every prompt sent to an LLM provider passes through it. */
  redaction?: TextRedaction;
}

/** One earlier turn of a conversation: a message to the person, or what they answered. */
export interface ConversationTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** The messages to the person among the earlier turns, oldest first. */
export const userMessages = (history: readonly ConversationTurn[] = []): string[] =>
  history.filter((t) => t.role === 'user').map((t) => t.text);

/**
 * A piece of an answer, as soon as the engine has it (streamed simulations): a whole field of the
 * analysis, a few more words of `saying` (LLM token deltas), or the evidence.
 */
export type SimulationPart =
  | { kind: 'part'; field: keyof SimulationAnalysis; text: string }
  | { kind: 'delta'; field: 'saying'; text: string }
  | { kind: 'evidence'; evidence: EvidenceItem[] };

export type PartListener = (part: SimulationPart) => void;

/** An engine answers a scenario from a mind's memories. */
export interface Engine {
  /** True when the engine uses `SimulationInput.context` (loading it costs a query per new memory key). */
  readonly wantsContext?: boolean;
  /** The answer; `onPart` (when given) hears its pieces as they are ready, before the promise settles. */
  simulate(input: SimulationInput, onPart?: PartListener): Promise<SimulationResult>;
  /**
   * A typed question (panels) answered as the person: one of its options, some of them, a point of
   * its scale, a number or their words — or `no_evidence`. The caller passes a normalized question
   * (see engines/questions.ts); `choices` are always verbatim from `options`.
   */
  answerQuestion(input: QuestionInput): Promise<TypedAnswer>;
}
