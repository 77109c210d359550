/**
 * mind-reasoner-pro: an LLM answers from the person's profile, the experts' reflections, the
 * passages the learned search picked for the scenario (memory/search, as the offline engine quotes
 * them), and the rest of
 * their statements — the whole transcript when it fits the context budget (LLM_CONTEXT_WORDS),
 * else the whole answers those passages come from.
 * The answer is a zod-validated object; `evidence` lists the passages it was pointed to.
 */
import { llmFor, RedactingLlm } from './llm-redacting.ts';
import { z } from 'zod';
import { passageEvidence, round3 } from './evidence.ts';
import type { StoredMemory } from '../memory/types.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { answerPassages, docRelevance } from '../memory/answer/passages.ts';
import { unitScore } from '../memory/answer/scores.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import { PROMPT_PASSAGES as PASSAGES, RUNNER_UP_WORDS as PASSAGE_WORDS } from '../memory/tuning.ts';
import type { LlmClient } from './llm-model.ts';
import { memoriesBrief, passagesBrief, profileBrief, reflectionsBrief, simulationPrompt, simulationSystem } from './llm-prompt.ts';
import { answerWithLlm } from './llm-questions.ts';
import type { QuestionInput, TypedAnswer } from './questions.ts';
import { userMessages, type Engine, type PartListener, type SimulationInput, type SimulationResult } from './types.ts';

export const LlmAnswer = z.object({
  thinking: z.string(),
  feeling: z.string(),
  saying: z.string(),
  acting: z.string(),
  confidence: z.number(),
});

export class LlmEngine implements Engine {
  readonly wantsContext = true;

  private readonly llm: LlmClient;
  private readonly searcher: Searcher;
  /** The prompt's passages are the learned search's best answers (as the offline engine quotes them). */
  constructor(llm: LlmClient, searcher: Searcher) {
    this.llm = llm;
    this.searcher = searcher;
  }

  /** With `onPart`, the answer is streamed: the evidence first, then `saying` as its tokens arrive. */
  async simulate(input: SimulationInput, onPart?: PartListener): Promise<SimulationResult> {
    const mind = input.memory;
    // The same search as the offline engine: better search improves both.
    const { passages, relevance } = await this.passages(mind, input);
    const transcript = this.transcript(mind, passages);
    const profile = input.context ? profileBrief(input.context.profile) : '(none)';
    const reflections = reflectionsBrief(input.context?.reflections ?? []);
    const prompt = simulationPrompt(input.mindName, profile, reflections, passagesBrief(passages.map((docs) => mind.memoriesAt(docs))), memoriesBrief(transcript), input.scenario, input.history ?? []);
    const evidence = passages.map((docs) => passageEvidence(mind, relevance, docs));
    const system = simulationSystem(input.mindName);
    const llm = llmFor(this.llm, input.redaction);
    let answer: z.infer<typeof LlmAnswer>;
    if (onPart) {
      onPart({ kind: 'evidence', evidence });
      let said = '';
      answer = await llm.streamedObject(LlmAnswer, system, prompt, 'simulation', (partial) => {
        const saying = partial.saying ?? '';
        // Partial JSON only grows; a string that does not extend what was sent is not streamed (the result has it all).
        if (saying.length > said.length && saying.startsWith(said)) {
          onPart({ kind: 'delta', field: 'saying', text: saying.slice(said.length) });
          said = saying;
        }
      });
    } else answer = await llm.object(LlmAnswer, system, prompt, 'simulation');
    const { confidence, ...analysis } = answer;
    const redactions = llm instanceof RedactingLlm ? { redactions: llm.counts } : {};
    return { message: analysis.saying, analysis, confidence: round3(unitScore(confidence)), evidence, ...redactions };
  }

  /** A typed question (panels): the retrieval's passages and an answer constrained to the question's options (llm-questions.ts). */
  answerQuestion(input: QuestionInput): Promise<TypedAnswer> {
    return answerWithLlm(llmFor(this.llm, input.redaction), this.searcher, input);
  }

  /** The passages that lead the prompt, with each doc's relevance for the evidence. */
  private async passages(mind: MindMemory, input: SimulationInput): Promise<{ passages: number[][]; relevance: Map<number, number> }> {
    const found = await this.searcher.search(mind, input.scenario, userMessages(input.history));
    if (!found) return { passages: [], relevance: new Map() };
    return { passages: answerPassages(mind, found.ranking, PASSAGES, PASSAGE_WORDS), relevance: docRelevance(found.ranking) };
  }

  /**
   * The rest of what the person said: all of it when it fits the context budget
   * (LLM_CONTEXT_WORDS), else the whole answers the passages come from.
   */
  private transcript(mind: MindMemory, passages: ReadonlyArray<readonly number[]>): StoredMemory[] {
    const total = mind.words.reduce((sum, n) => sum + n, 0);
    if (total <= this.llm.settings.contextWords) return [...mind.memories];
    const chosen = new Set<number>();
    for (const docs of passages) {
      const lead = docs[0] ?? 0;
      for (let d = mind.answerFirst[lead] ?? lead; d <= (mind.answerLast[lead] ?? lead); d++) chosen.add(d);
    }
    return mind.memoriesAt([...chosen].sort((a, b) => a - b));
  }
}
