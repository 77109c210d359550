/**
 * mind-reasoner-pro: an LLM answers from the person's profile, the experts' reflections and
 * their statements — the whole transcript when it fits the context budget (LLM_CONTEXT_WORDS),
 * else the retrieved memories plus the full answers to the most similar past questions.
 * The answer is a zod-validated object; `evidence` lists the memories that were sent.
 */
import { z } from 'zod';
import { evidenceItem, round3 } from './evidence.ts';
import type { StoredMemory } from '../memory/types.ts';
import { IndexCache } from './grounded.ts';
import type { LlmClient } from './llm-model.ts';
import { memoriesBrief, profileBrief, reflectionsBrief, simulationPrompt, simulationSystem } from './llm-prompt.ts';
import type { Engine, SimulationInput, SimulationResult } from './types.ts';

export const LlmAnswer = z.object({
  thinking: z.string(),
  feeling: z.string(),
  saying: z.string(),
  acting: z.string(),
  confidence: z.number(),
});

const RETRIEVE_K = 24;
/** Retrieved hits whose whole answer (all sentences under the same question) is sent. */
const SIMILAR_QUESTIONS = 5;
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

export class LlmEngine implements Engine {
  readonly wantsContext = true;
  private readonly indexes = new IndexCache(16);

  constructor(private readonly llm: LlmClient) {}

  async simulate(input: SimulationInput): Promise<SimulationResult> {
    const { sent, scores } = this.select(input);
    const profile = input.context ? profileBrief(input.context.profile) : '(none)';
    const reflections = reflectionsBrief(input.context?.reflections ?? []);
    const prompt = simulationPrompt(input.mindName, profile, reflections, memoriesBrief(sent), input.scenario);
    const answer = await this.llm.object(LlmAnswer, simulationSystem(input.mindName), prompt, 'simulation');
    const evidence = sent
      .map((m) => evidenceItem(m, scores.get(m) ?? 0))
      .sort((a, b) => b.score - a.score);
    const { confidence, ...analysis } = answer;
    return { message: analysis.saying, analysis, confidence: round3(Math.min(1, Math.max(0, confidence))), evidence };
  }

  /** The memories to send, in source order, with their retrieval scores. */
  private select(input: SimulationInput): { sent: StoredMemory[]; scores: Map<StoredMemory, number> } {
    const index = this.indexes.get(input.memoryKey, input.memories);
    const hits = index.search(input.scenario, RETRIEVE_K);
    const scores = new Map(hits.map((h) => [h.memory, h.score]));
    const total = input.memories.reduce((sum, m) => sum + wordCount(m.text), 0);
    if (total <= this.llm.settings.contextWords) return { sent: [...input.memories], scores };
    const chosen = new Set(hits.map((h) => h.memory));
    // The whole answers to the most similar past questions.
    for (const hit of hits.filter((h) => h.memory.question).slice(0, SIMILAR_QUESTIONS)) {
      for (const m of index.answerOf(hit.memory)) chosen.add(m);
    }
    const sent = input.memories.filter((m) => chosen.has(m));
    return { sent, scores };
  }
}

