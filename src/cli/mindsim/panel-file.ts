/**
 * The questions file of `mindsim panel run`: YAML (or JSON), either a list of questions or
 * `{name?, questions: [...]}`, each `{id?, text, type, options?, scale?}` as `POST /panels` takes
 * it. Checked here before anything is sent, so a typo is a usage error naming the file and the
 * question, not a round trip: the shape (zod), then the rules the service applies
 * (`normalizeQuestions`: options for single and multiple only, a likert scale of integers, …).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { CreatePanelRequest } from '@mindsim/sdk';
import { QUESTION_TYPES } from '../../engines/questions.ts';
import { normalizeQuestions } from '../../domain/panel.ts';
import { DomainError } from '../../kernel/errors.ts';
import { UsageError } from './terminal.ts';

export interface QuestionsFile {
  name?: string;
  questions: CreatePanelRequest['questions'];
}

/** YAML turns `Yes`, `3` or `true` into strings only when quoted: an option or a label may be any scalar. */
const Label = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const Question = z.strictObject({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  text: z.string().min(1, 'the text is empty'),
  type: z.enum(QUESTION_TYPES),
  options: z.array(Label).optional(),
  scale: z
    .strictObject({
      min: z.number(),
      max: z.number(),
      labels: z.array(Label).optional(),
    })
    .optional(),
});

const Questions = z.array(Question).min(1, 'there are no questions');

const FileObject = z.strictObject({ name: z.string().optional(), questions: Questions });

/** `questions.2.type` → `question 3, type`. */
function where(issuePath: readonly PropertyKey[]): string {
  if (issuePath.length === 1 && issuePath[0] === 'questions') return 'questions';
  const parts = issuePath[0] === 'questions' ? issuePath.slice(1) : [...issuePath];
  const [first, ...rest] = parts;
  const head = typeof first === 'number' ? `question ${first + 1}` : first !== undefined ? String(first) : '';
  return [head, rest.map(String).join('.')].filter(Boolean).join(', ');
}

function shapeError(file: string, error: z.ZodError): UsageError {
  const lines = error.issues.slice(0, 5).map((i) => `  ${where(i.path) || 'the file'}: ${i.message}`);
  const more = error.issues.length > 5 ? `\n  …and ${error.issues.length - 5} more` : '';
  return new UsageError(`${file} is not a questions file:\n${lines.join('\n')}${more}`);
}

/** Reads and checks a questions file; every problem is a UsageError (exit code 2) naming the file. */
export function readQuestionsFile(file: string): QuestionsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? (err as Error).message);
    throw new UsageError(`Cannot read ${file}: ${why}`);
  }
  let data: unknown;
  try {
    data = path.extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    const kind = path.extname(file).toLowerCase() === '.json' ? 'JSON' : 'YAML';
    const first = ((err as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw new UsageError(`${file} is not valid ${kind}: ${first}`);
  }
  if (data === null || data === undefined) throw new UsageError(`${file} is empty: give a list of questions, or {name, questions: [...]}`);
  if (typeof data !== 'object') throw new UsageError(`${file} is not a questions file: expected a list of questions, or {name, questions: [...]}`);
  const parsed = Array.isArray(data) ? Questions.safeParse(data) : FileObject.safeParse(data);
  if (!parsed.success) throw shapeError(file, parsed.error);
  const out: QuestionsFile = Array.isArray(parsed.data) ? { questions: parsed.data } : parsed.data;
  try {
    // The service's own rules, so the answer is the same here as from POST /panels.
    normalizeQuestions(out.questions);
  } catch (err) {
    if (err instanceof DomainError) throw new UsageError(`${file}: ${err.message}`);
    throw err;
  }
  return out;
}
