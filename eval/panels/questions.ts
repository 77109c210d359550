/**
 * The panel evaluation's questions (eval/panels/questions.json): typed questions about the guest
 * of one interview, each with its expected answer and the held-out passage (a quote of the guest's
 * turn that holds the answer), and off-topic questions asked of every mind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Question } from '../../src/engines/questions.ts';
import type { Interview } from '../interviews.ts';

export interface OnTopicQuestion extends Question {
  file: string;
  /** single: one option; multiple: the options (in any order); likert/number: the value. */
  expected: string | string[] | number;
  /** A quote of the guest's turn that holds the answer (whitespace-insensitive). */
  quote: string;
}

export interface PanelQuestions {
  onTopic: OnTopicQuestion[];
  offTopic: Question[];
}

export const DEFAULT_QUESTIONS = path.join(import.meta.dirname, 'questions.json');

export function loadQuestions(file = DEFAULT_QUESTIONS): PanelQuestions {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as PanelQuestions;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The index of the guest's turn that holds the quote, or -1. */
export function quotedTurn(interview: Interview, quote: string): number {
  const q = squash(quote);
  return interview.turns.findIndex((t) => t.speaker === interview.guest && squash(t.text).includes(q));
}

/** What is wrong with a question (empty when nothing): a missing transcript or quote, an expected answer that is not an option, a bad scale. */
export function problems(q: OnTopicQuestion, interviews: ReadonlyMap<string, Interview>): string[] {
  const out: string[] = [];
  const interview = interviews.get(q.file);
  if (!interview) out.push(`${q.id}: no transcript ${q.file}`);
  else if (quotedTurn(interview, q.quote) < 0) out.push(`${q.id}: quote not in a turn of ${interview.guest}`);
  const options = q.options ?? [];
  if (q.type === 'single' && (typeof q.expected !== 'string' || !options.includes(q.expected))) out.push(`${q.id}: expected is not an option`);
  if (q.type === 'multiple' && (!Array.isArray(q.expected) || q.expected.length === 0 || q.expected.some((e) => !options.includes(e)))) out.push(`${q.id}: expected are not options`);
  if ((q.type === 'single' || q.type === 'multiple') && new Set(options).size < 2) out.push(`${q.id}: fewer than two distinct options`);
  if (q.type === 'likert') {
    const s = q.scale;
    if (!s || !Number.isInteger(s.min) || !Number.isInteger(s.max) || s.max <= s.min) out.push(`${q.id}: bad scale`);
    else if (typeof q.expected !== 'number' || !Number.isInteger(q.expected) || q.expected < s.min || q.expected > s.max) out.push(`${q.id}: expected off the scale`);
    if (s?.labels && s.labels.length !== s.max - s.min + 1) out.push(`${q.id}: one label per point`);
  }
  if (q.type === 'number' && typeof q.expected !== 'number') out.push(`${q.id}: expected is not a number`);
  return out;
}
