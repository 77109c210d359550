/**
 * Typed answers that contradict their own evidence, counted two ways: by the checker
 * (contradiction.ts) over every answer, and by hand over the answers judged in judgements.json (a
 * person read the question, the answer and the quoted passage, and wrote whether the passage says
 * the opposite: "contradicts", says it or leans to it: "agrees", or cannot tell: "unclear"). An
 * answer is known by its set, question, answer and a hash of the passage it quotes, so a judgement
 * stays with the answer it was made on and a changed answer is judged anew. `--to-judge FILE` of
 * eval/panels.ts writes the answers not judged yet.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Question, TypedAnswer } from '../../src/engines/questions.ts';
import { contradiction, type Verdict } from './contradiction.ts';

export type HandVerdict = 'agrees' | 'contradicts' | 'unclear';
export const JUDGEMENTS_FILE = path.join(import.meta.dirname, 'judgements.json');

export function loadJudgements(file = JUDGEMENTS_FILE): Record<string, HandVerdict> {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, HandVerdict>) : {};
}

const shownAnswer = (a: TypedAnswer): string => (a.choices.length > 0 ? a.choices.join(' + ') : String(a.value));

export const judgementKey = (set: string, q: Question, a: TypedAnswer): string =>
  `${set}|${q.id ?? q.text.slice(0, 40)}|${shownAnswer(a)}|${crypto.createHash('sha1').update(a.saying).digest('hex').slice(0, 10)}`;

export interface Checked {
  key: string;
  question: Question;
  answer: TypedAnswer;
  checker: Verdict;
  hand: HandVerdict | undefined;
}

export interface ContradictionTally {
  set: string;
  /** Answered yes/no, choice and likert questions (what can contradict). */
  typed: number;
  checker: { contradicts: number; unread: number };
  hand: { judged: number; contradicts: number; unclear: number };
  /** Over the hand-judged answers the checker read: [checker contradicts & hand contradicts, checker only, hand only, neither]. */
  agreement: [number, number, number, number];
  checked: Checked[];
}

export function tallyContradictions(set: string, pairs: ReadonlyArray<readonly [Question, TypedAnswer]>, judged: Readonly<Record<string, HandVerdict>>): ContradictionTally {
  const checked: Checked[] = pairs.flatMap(([question, answer]) => {
    const checker = contradiction(question, answer);
    if (checker === 'none') return [];
    const key = judgementKey(set, question, answer);
    return [{ key, question, answer, checker, hand: judged[key] }];
  });
  const t: ContradictionTally = { set, typed: checked.length, checker: { contradicts: 0, unread: 0 }, hand: { judged: 0, contradicts: 0, unclear: 0 }, agreement: [0, 0, 0, 0], checked };
  for (const c of checked) {
    if (c.checker === 'contradicts') t.checker.contradicts++;
    if (c.checker === 'unread') t.checker.unread++;
    if (!c.hand) continue;
    t.hand.judged++;
    if (c.hand === 'contradicts') t.hand.contradicts++;
    if (c.hand === 'unclear') t.hand.unclear++;
    if (c.checker === 'unread' || c.hand === 'unclear') continue;
    const [a, b] = [c.checker === 'contradicts', c.hand === 'contradicts'];
    t.agreement[a && b ? 0 : a ? 1 : b ? 2 : 3]++;
  }
  return t;
}

/** The answers not judged yet, as a file to judge (question, answer, quoted passage, the checker's verdict). */
export function writeToJudge(file: string, tallies: readonly ContradictionTally[]): number {
  const open = tallies.flatMap((t) => t.checked.filter((c) => !c.hand).map((c) => ({ key: c.key, question: c.question.text, options: c.question.options, scale: c.question.scale, answer: shownAnswer(c.answer), saying: c.answer.saying, checker: c.checker })));
  fs.writeFileSync(file, `${JSON.stringify(open, null, 1)}\n`);
  return open.length;
}

const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

/** The contradiction table of EVAL.md's panel section. */
export function renderContradictions(tallies: readonly ContradictionTally[]): string[] {
  const rows = tallies.map((t) => {
    const [both, checkerOnly, handOnly, neither] = t.agreement;
    const compared = both + checkerOnly + handOnly + neither;
    return `| ${t.set} | ${t.typed} | ${t.checker.contradicts} (${pct(t.checker.contradicts, t.typed)}) | ${t.checker.unread} | ${t.hand.judged} | ${t.hand.contradicts} (${pct(t.hand.contradicts, t.hand.judged)}) | ${compared === 0 ? '–' : `${pct(both + neither, compared)} (${both}/${checkerOnly}/${handOnly}/${neither})`} |`;
  });
  return [
    '| set | typed answers (yes/no, choice, likert) | contradicting, checker | checker could not read | judged by hand | contradicting, by hand | checker agrees with hand (both / checker only / hand only / neither) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}
