/** Scoring typed answers against the expected ones, and the majority and random baselines (expected accuracy over the same questions). */
import type { TypedAnswer } from '../../src/engines/questions.ts';
import type { OnTopicQuestion } from './questions.ts';

export function correct(q: OnTopicQuestion, a: TypedAnswer): boolean {
  if (a.status !== 'answered') return false;
  switch (q.type) {
    case 'single':
      return a.choices.length === 1 && a.choices[0] === q.expected;
    case 'multiple': {
      const want = new Set(q.expected as string[]);
      return a.choices.length === want.size && a.choices.every((c) => want.has(c));
    }
    case 'likert':
    case 'number':
      return a.value === q.expected;
    case 'open':
      return false;
  }
}

/** Likert within one point of the expected value (a softer reading of a stance). */
export const withinOne = (q: OnTopicQuestion, a: TypedAnswer): boolean =>
  q.type === 'likert' && a.status === 'answered' && a.value !== null && Math.abs(a.value - (q.expected as number)) <= 1;

const key = (x: OnTopicQuestion['expected']): string => JSON.stringify(Array.isArray(x) ? [...x].sort() : x);

/**
 * Majority baseline: answers every question with the answer most often expected among the
 * *other* questions of its type (leave-one-out) when it is allowed here (an option of this
 * question, a point of its scale), else the first option / the scale's midpoint; expected
 * accuracy 1 or 0 per question. Random baseline: a uniform option (single), a uniform non-empty
 * subset (multiple), a uniform point (likert); a number question has no finite set to draw from,
 * so random scores 0 there.
 */
export function baselines(questions: readonly OnTopicQuestion[]): { majority: number[]; random: number[] } {
  const majority = questions.map((q, i) => {
    const counts = new Map<string, number>();
    questions.forEach((o, j) => {
      if (j !== i && o.type === q.type) counts.set(key(o.expected), (counts.get(key(o.expected)) ?? 0) + 1);
    });
    const allowed = (k: string): boolean => {
      const v = JSON.parse(k) as OnTopicQuestion['expected'];
      if (q.type === 'single') return typeof v === 'string' && (q.options ?? []).includes(v);
      if (q.type === 'multiple') return Array.isArray(v) && v.every((x) => (q.options ?? []).includes(x));
      if (q.type === 'likert') return typeof v === 'number' && !!q.scale && v >= q.scale.min && v <= q.scale.max;
      return typeof v === 'number';
    };
    const ranked = [...counts].filter(([k]) => allowed(k)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    let pick: string | undefined = ranked[0]?.[0];
    if (pick === undefined) {
      if (q.type === 'single') pick = key(q.options?.[0] ?? '');
      else if (q.type === 'multiple') pick = key([q.options?.[0] ?? '']);
      else if (q.type === 'likert' && q.scale) pick = key(Math.round((q.scale.min + q.scale.max) / 2));
      else pick = key(0);
    }
    return pick === key(q.expected) ? 1 : 0;
  });
  const random = questions.map((q) => {
    const n = q.options?.length ?? 0;
    if (q.type === 'single') return 1 / n;
    if (q.type === 'multiple') return 1 / (2 ** n - 1);
    if (q.type === 'likert' && q.scale) return 1 / (q.scale.max - q.scale.min + 1);
    return 0;
  });
  return { majority, random };
}
