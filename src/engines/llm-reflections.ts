/**
 * Four expert reflections on the person (psychologist, behavioural economist, political
 * scientist, demographer), written by the LLM when a snapshot is processed and stored with it.
 */
import { llmFor, type TextRedaction } from './llm-redacting.ts';
import { z } from 'zod';
import { mergeProfiles } from '../memory/profile-merge.ts';
import type { SnapshotProfile } from '../memory/profile-types.ts';
import type { Memory } from '../memory/types.ts';
import type { LlmClient } from './llm-model.ts';
import { memoriesBrief, profileBrief, reflectionPrompt, reflectionSystem, withinBudget } from './llm-prompt.ts';

export interface ReflectInput {
  mindName: string;
  profile: SnapshotProfile;
  memories: Memory[];
  /** The mind's redaction when it is on: the prompt passes through it. */
  redaction?: TextRedaction;
}

export type Reflect = (input: ReflectInput) => Promise<{ model: string; reflections: Array<{ expert: string; text: string }> }>;

const Reflections = z.object({
  psychologist: z.string(),
  behaviouralEconomist: z.string(),
  politicalScientist: z.string(),
  demographer: z.string(),
});

export function reflector(llm: LlmClient): Reflect {
  return async ({ mindName, profile, memories, redaction }) => {
    // As much of the transcript as the context budget allows, from the start.
    const sent = withinBudget(memories, llm.settings.contextWords);
    const brief = profileBrief(mergeProfiles([{ snapshotId: '', profile }]));
    const stored = sent.map((m) => ({ ...m, snapshotId: '' }));
    const r = await llmFor(llm, redaction).object(Reflections, reflectionSystem(), reflectionPrompt(mindName, brief, memoriesBrief(stored)), 'reflections');
    return {
      model: llm.modelName,
      reflections: [
        { expert: 'psychologist', text: r.psychologist },
        { expert: 'behavioural economist', text: r.behaviouralEconomist },
        { expert: 'political scientist', text: r.politicalScientist },
        { expert: 'demographer', text: r.demographer },
      ],
    };
  };
}
