/**
 * Typed answers through the LLM (mind-reasoner-pro, panels): the learned search's passages for
 * the question (as `answerTyped` searches it), numbered in the prompt, and a structured answer
 * whose zod schema is built per question, so the provider is constrained to the allowed answers:
 *
 * - single: `choice` ∈ options ∪ {"no_evidence"}; multiple: `choices`, an array of that enum;
 * - likert: `value` an integer of the scale or null, with `noEvidence`; number: `value` a number
 *   (within the bounds when given) or null, with `noEvidence`; open: `noEvidence`;
 * - always `saying`, `confidence` and `passages` (indexes of the passages it used).
 *
 * The reply is checked again against the question (an option not in the list, a value off the
 * scale, an unknown passage index never reach the answer). A reply that does not fit the schema
 * (the provider ignored the enum) is treated as no_evidence, not as a failure of the panel: the
 * model did not give one of the allowed answers. An unreachable provider still throws (503).
 */
import { z } from 'zod';
import { DomainError } from '../kernel/errors.ts';
import type { MindMemory } from '../memory/mind-memory.ts';
import { answerPassages, docRelevance } from '../memory/answer/passages.ts';
import { unitScore } from '../memory/answer/scores.ts';
import type { Searcher } from '../memory/search/searcher.ts';
import { PROMPT_PASSAGES as PASSAGES, RUNNER_UP_WORDS as PASSAGE_WORDS } from '../memory/tuning.ts';
import { passageEvidence, round3 } from './evidence.ts';
import { NO_EVIDENCE_SAYING, questionScenario } from './grounded-questions.ts';
import { profileBrief } from './llm-prompt.ts';
import { UNFIT_ANSWER } from './llm-model.ts';
import type { LlmPort } from './llm-redacting.ts';
import { questionPrompt, questionSystem } from './llm-question-prompt.ts';
import type { Question, QuestionInput, TypedAnswer } from './questions.ts';

export const NO_EVIDENCE = 'no_evidence';
/** The saying when the model's reply was not one of the allowed answers. */
export const UNFIT_SAYING = 'The model did not give one of the allowed answers.';

const common = {
  saying: z.string(),
  confidence: z.number(),
  passages: z.array(z.number().int()),
};

/** The structured answer a question allows (see the module comment). */
export function questionSchema(q: Question) {
  const options = [...new Set([...(q.options ?? []), NO_EVIDENCE])] as [string, ...string[]];
  switch (q.type) {
    case 'single':
      return z.object({ choice: z.enum(options), ...common });
    case 'multiple':
      return z.object({ choices: z.array(z.enum(options)), ...common });
    case 'likert': {
      const s = q.scale ?? { min: 1, max: 5 };
      return z.object({ value: z.number().int().min(s.min).max(s.max).nullable(), noEvidence: z.boolean(), ...common });
    }
    case 'number': {
      const value = q.scale ? z.number().min(q.scale.min).max(q.scale.max) : z.number();
      return z.object({ value: value.nullable(), noEvidence: z.boolean(), ...common });
    }
    case 'open':
      return z.object({ noEvidence: z.boolean(), ...common });
  }
}

/** Whatever shape the per-type schema gave, read leniently: the check against the question is ours. */
interface Reply {
  choice?: string;
  choices?: string[];
  value?: number | null;
  noEvidence?: boolean;
  saying: string;
  confidence: number;
  passages: number[];
}

const declined = (saying: string, confidence = 0): TypedAnswer => ({
  status: 'no_evidence',
  choices: [],
  value: null,
  saying: saying.trim() || NO_EVIDENCE_SAYING,
  confidence: round3(unitScore(confidence)),
  evidence: [],
});

/** The typed answer a reply stands for, checked against the question. */
export function mapReply(q: Question, r: Reply): { choices: string[]; value: number | null } | null {
  const options = q.options ?? [];
  switch (q.type) {
    case 'single':
      return r.choice !== undefined && options.includes(r.choice) ? { choices: [r.choice], value: null } : null;
    case 'multiple': {
      const picked = r.choices ?? [];
      if (picked.length === 0 || picked.some((c) => !options.includes(c))) return null;
      return { choices: options.filter((o) => picked.includes(o)), value: null };
    }
    case 'likert': {
      const s = q.scale ?? { min: 1, max: 5 };
      const v = r.value;
      if (r.noEvidence || v === null || v === undefined || !Number.isInteger(v) || v < s.min || v > s.max) return null;
      return { choices: [], value: v };
    }
    case 'number': {
      const v = r.value;
      if (r.noEvidence || v === null || v === undefined || !Number.isFinite(v)) return null;
      if (q.scale && (v < q.scale.min || v > q.scale.max)) return null;
      return { choices: [], value: v };
    }
    case 'open':
      return r.noEvidence || !r.saying.trim() ? null : { choices: [], value: null };
  }
}

export async function answerWithLlm(llm: LlmPort, searcher: Searcher, input: QuestionInput): Promise<TypedAnswer> {
  const mind: MindMemory = input.memory;
  const q = input.question;
  const found = await searcher.search(mind, questionScenario(q));
  const passages = found ? answerPassages(mind, found.ranking, PASSAGES, PASSAGE_WORDS) : [];
  const texts = passages.map((docs) => mind.memoriesAt(docs).map((m) => m.text).join(' '));
  const profile = input.context ? profileBrief(input.context.profile) : '(none)';
  let reply: Reply;
  try {
    reply = (await llm.object(questionSchema(q) as z.ZodType<Reply>, questionSystem(input.mindName), questionPrompt(input.mindName, profile, q, texts), 'typed_answer')) as Reply;
  } catch (err) {
    if (err instanceof DomainError && err.details?.reason === UNFIT_ANSWER) return declined(UNFIT_SAYING);
    throw err;
  }
  const mapped = mapReply(q, reply);
  if (!mapped) return declined(reply.saying, reply.confidence);
  const relevance = found ? docRelevance(found.ranking) : new Map<number, number>();
  const used = [...new Set(reply.passages)].filter((i) => Number.isInteger(i) && i >= 0 && i < passages.length);
  const evidence = (used.length > 0 ? used : passages.length > 0 ? [0] : []).map((i) => passageEvidence(mind, relevance, passages[i] ?? []));
  return { status: 'answered', ...mapped, saying: reply.saying, confidence: round3(unitScore(reply.confidence)), evidence };
}
