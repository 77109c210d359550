/**
 * Prompts for typed answers (panels) through the LLM: the question, its allowed answers, and the
 * passages the offline retrieval picked, numbered so the model can say which it used. The model
 * must answer `no_evidence` when the passages do not settle the question: that is an answer, not
 * a failure.
 */
import { scalePointLabel, type Question } from './questions.ts';

/** The points of a scale, min to max. */
const likertValues = (s: { min: number; max: number }): number[] => Array.from({ length: s.max - s.min + 1 }, (_, i) => s.min + i);

export function questionSystem(mindName: string): string {
  return (
    `You answer a questionnaire as ${mindName}, a real person, only from what they said in interviews. ` +
    'Pick an answer only when their own words support it; otherwise answer no_evidence. Never guess from what people like them usually think. ' +
    "Never present the interviewer's words as theirs."
  );
}

/** What the answer must be, per question type, in words. */
function allowed(q: Question): string {
  switch (q.type) {
    case 'single':
      return `Exactly one of these options, verbatim: ${(q.options ?? []).map((o) => JSON.stringify(o)).join(', ')}; or "no_evidence".`;
    case 'multiple':
      return `Every option their words support, verbatim from: ${(q.options ?? []).map((o) => JSON.stringify(o)).join(', ')}; or ["no_evidence"] alone.`;
    case 'likert': {
      const s = q.scale ?? { min: 1, max: 5 };
      const named = likertValues(s).flatMap((v) => {
        const label = scalePointLabel(s, v);
        return label === undefined ? [] : [`${v} = ${label}`];
      });
      const labels = named.length ? ` (${named.join(', ')})` : '';
      return `An integer from ${s.min} to ${s.max}${labels} in value, noEvidence false; or value null and noEvidence true.`;
    }
    case 'number': {
      const bounds = q.scale ? ` between ${q.scale.min} and ${q.scale.max}` : '';
      return `A number they state${bounds} in value, noEvidence false; or value null and noEvidence true.`;
    }
    case 'open':
      return 'Their answer in saying, noEvidence false; or noEvidence true when they never spoke to it.';
  }
}

/** The passages, numbered from 0 (the indexes `passages` in the answer refers to). */
export function numberedPassages(passages: readonly string[]): string {
  if (passages.length === 0) return '(nothing they said matches this question)';
  return passages.map((p, i) => `[${i}] ${p}`).join('\n');
}

export function questionPrompt(mindName: string, profile: string, q: Question, passages: readonly string[]): string {
  return [
    `# Profile of ${mindName}`,
    profile,
    `# What ${mindName} said that bears most on the question (numbered)`,
    numberedPassages(passages),
    '# Question',
    q.text,
    '# Allowed answer',
    allowed(q),
    '# Task',
    `Answer as ${mindName}. saying: what they would say, in the first person, reusing their words. ` +
      'confidence: 0 to 1, how clearly their words support the answer. passages: the numbers of the passages your answer rests on (empty for no_evidence).',
  ].join('\n\n');
}
