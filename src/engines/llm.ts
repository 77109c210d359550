/**
 * mind-reasoner-pro: an LLM answers from the person's profile, the experts' reflections, the
 * passages the answer stage chose for the scenario (memory/answer/compose.ts, the evidence the
 * offline engine quotes), and the rest of their statements — the whole transcript when it fits the context budget (LLM_CONTEXT_WORDS),
 * else the whole answers those passages come from.
 * The answer is a zod-validated object; `evidence` lists the passages it was pointed to. The person's
 * own corrections that answer the scenario (issue 32) come first in the prompt, marked as theirs and
 * as winning over the transcript, and first in the evidence.
 */
import { llmFor, RedactingLlm } from './llm-redacting.ts';
import { z } from 'zod';
import { passageEvidence, round3 } from './evidence.ts';
import { correctionEvidence } from './corrected.ts';
import type { StoredMemory } from '../memory/types.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { composeAnswer } from '../memory/answer/compose.ts';
import { answerPassages, docRelevance } from '../memory/answer/passages.ts';
import { unitScore } from '../memory/answer/scores.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import { PROMPT_PASSAGES as PASSAGES, RUNNER_UP_WORDS as PASSAGE_WORDS } from '../memory/tuning.ts';
import type { LlmClient } from './llm-model.ts';
import { correctionsBrief, memoriesBrief, passagesBrief, profileBrief, reflectionsBrief, simulationPrompt, simulationSystem } from './llm-prompt.ts';
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
    const [{ passages, quoted, relevance }, matches] = await Promise.all([this.passages(mind, input), this.searcher.corrections(input.scenario, input.corrections)]);
    const transcript = this.transcript(mind, passages);
    const profile = input.context ? profileBrief(input.context.profile) : '(none)';
    const reflections = reflectionsBrief(input.context?.reflections ?? []);
    const prompt = simulationPrompt(input.mindName, profile, reflections, passagesBrief(passages.map((docs) => mind.memoriesAt(docs))), memoriesBrief(transcript), input.scenario, input.history ?? [], correctionsBrief(matches.map((m) => m.correction)));
    // The person's own corrections that answer the scenario lead the evidence, as they lead the prompt.
    const evidence = [...matches.map((m) => correctionEvidence(input.mindName, m)), ...quoted.map((docs) => passageEvidence(mind, relevance, docs))];
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

  /**
   * The passages that lead the prompt: the answer stage's evidence (memory/answer/compose.ts, what the
   * offline engine quotes: its saying's passage first, then what its fields quote), which is also this
   * answer's evidence, then the next best answers up to PROMPT_PASSAGES. When the answer stage declines
   * (off-topic), the ranking's best answers, so the model still sees the closest words.
   */
  private async passages(mind: MindMemory, input: SimulationInput): Promise<{ passages: number[][]; quoted: number[][]; relevance: Map<number, number> }> {
    const found = await this.searcher.search(mind, input.scenario, userMessages(input.history));
    if (!found) return { passages: [], quoted: [], relevance: new Map() };
    const ranked = answerPassages(mind, found.ranking, PASSAGES, PASSAGE_WORDS);
    const composed = composeAnswer(mind, found, this.searcher.params.declineBelow);
    if (composed.declined) return { passages: ranked, quoted: ranked, relevance: docRelevance(found.ranking) };
    const shown = new Set(composed.passages.flat());
    const more = ranked.filter((docs) => !docs.some((d) => shown.has(d))).slice(0, Math.max(0, PASSAGES - composed.passages.length));
    return { passages: [...composed.passages, ...more], quoted: composed.passages, relevance: composed.relevance };
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
