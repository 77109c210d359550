/**
 * Panels for the process-level tests and the benchmark: a questionnaire of every question type on
 * what the interviews talk about, minds built from transcripts, every answer of a panel read back,
 * and the check that a finished panel holds each (mind, question) answer exactly once with results
 * that count exactly those answers. Shared by test/panels.kill.test.ts and bench/panels.ts.
 */
import type { CreatePanelRequest, MindsimClient, Panel, PanelAnswer } from '@mindsim/sdk';
import { blobOf, waitFor } from './sdk.ts';

export type PanelQuestion = CreatePanelRequest['questions'][number];

const AGREE = ['Strongly disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly agree'];

/** One question of each type whose answer Sam (sampleInterview) gives, and one nobody talks about: the panel tests' questionnaire. */
export const SAM_QUESTIONS: PanelQuestion[] = [
  { id: 'where', text: 'Do you prefer working remotely or in an office?', type: 'single', options: ['Remote, from home', 'In an office'] },
  { id: 'hiring', text: 'What do you look for first when you hire engineers?', type: 'multiple', options: ['Curiosity', 'Clear writing', 'A famous university degree'] },
  { id: 'remote-love', text: 'How much do you enjoy working from home?', type: 'likert', scale: { min: 1, max: 5, labels: ['Not at all', 'A little', 'Somewhat', 'A lot', 'Completely'] } },
  { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'number', scale: { min: 0, max: 20 } },
  { id: 'burnout', text: 'How do you deal with burnout?', type: 'open' },
  { id: 'football', text: 'Which football club do you support?', type: 'single', options: ['Arsenal', 'Liverpool', 'Real Madrid'] },
];

/**
 * Fifty typed questions, ten of each type, on the subjects of sampleInterview() and of
 * longInterview()'s generated answers (work, hiring, open source, running, coffee, …), with a few
 * nobody talks about, so both `answered` and `no_evidence` occur.
 */
export const PANEL_QUESTIONS: readonly PanelQuestion[] = [
  { id: 's1', type: 'single', text: 'Do you prefer working remotely or in an office?', options: ['Remotely, from home', 'In an office', 'A mix of both'] },
  { id: 's2', type: 'single', text: 'How do you usually start your working day?', options: ['With a run', 'With email', 'With a meeting', 'With coffee'] },
  { id: 's3', type: 'single', text: 'Which matters more when you hire an engineer?', options: ['Curiosity', 'A famous university', 'Years of experience'] },
  { id: 's4', type: 'single', text: 'When do you review code?', options: ['Every morning', 'Before every release', 'Rarely'] },
  { id: 's5', type: 'single', text: 'Would you join a small startup again?', options: ['Yes', 'No', 'It depends on the team'] },
  { id: 's6', type: 'single', text: 'How do you feel about meetings?', options: ['They are useful', 'They are exhausting', 'They are a waste of time'] },
  { id: 's7', type: 'single', text: 'What kind of documentation do you prefer?', options: ['Short and clear', 'Long and complete', 'None at all'] },
  { id: 's8', type: 'single', text: 'How do you handle technical debt?', options: ['Fix it early', 'Postpone it', 'Rewrite everything'] },
  { id: 's9', type: 'single', text: 'Which football club do you support?', options: ['Arsenal', 'Liverpool', 'Real Madrid'] },
  { id: 's10', type: 'single', text: 'Where would you rather live?', options: ['In a big city', 'In the countryside', 'By the sea'] },
  { id: 'm1', type: 'multiple', text: 'What do you look for first when you hire engineers?', options: ['Curiosity', 'Clear writing', 'A famous degree', 'Speed at puzzles'] },
  { id: 'm2', type: 'multiple', text: 'Which of these help you against burnout?', options: ['Running', 'Protecting my evenings', 'Cutting commitments', 'Working harder'] },
  { id: 'm3', type: 'multiple', text: 'Which of these do you do every week?', options: ['Review code', 'Plan the roadmap', 'Mentor colleagues', 'Write documentation'] },
  { id: 'm4', type: 'multiple', text: 'What makes a good team ritual?', options: ['It is short', 'It builds trust', 'It is mandatory', 'It is fun'] },
  { id: 'm5', type: 'multiple', text: 'Which of these do you care about in a project?', options: ['The budget', 'The deadline', 'The customer', 'The design'] },
  { id: 'm6', type: 'multiple', text: 'What do you drink during the day?', options: ['Coffee', 'Tea', 'Decaf', 'Water'] },
  { id: 'm7', type: 'multiple', text: 'What do you do on Sunday mornings?', options: ['Answer open source issues', 'Run', 'Cook', 'Sleep in'] },
  { id: 'm8', type: 'multiple', text: 'Which of these do you want from a manager?', options: ['Honest feedback', 'Clear goals', 'Freedom', 'Daily check-ins'] },
  { id: 'm9', type: 'multiple', text: 'Which of these do you test before a release?', options: ['The database', 'The pipeline', 'The dashboard', 'The network'] },
  { id: 'm10', type: 'multiple', text: 'Which instruments do you play?', options: ['Piano', 'Guitar', 'Violin', 'Drums'] },
  { id: 'l1', type: 'likert', text: 'How much do you enjoy working from home?', scale: { min: 1, max: 5, labels: ['Not at all', 'A little', 'Somewhat', 'A lot', 'Completely'] } },
  { id: 'l2', type: 'likert', text: 'Open source maintainers should be paid by the companies that depend on them.', scale: { min: 1, max: 5, labels: AGREE } },
  { id: 'l3', type: 'likert', text: 'How stressful are deadlines for you?', scale: { min: 1, max: 5 } },
  { id: 'l4', type: 'likert', text: 'Code review makes the team better.', scale: { min: 1, max: 5, labels: AGREE } },
  { id: 'l5', type: 'likert', text: 'How rewarding is mentoring new colleagues?', scale: { min: 1, max: 7 } },
  { id: 'l6', type: 'likert', text: 'A university degree matters when hiring.', scale: { min: 1, max: 5, labels: AGREE } },
  { id: 'l7', type: 'likert', text: 'How important is sleep to your work?', scale: { min: 0, max: 10 } },
  { id: 'l8', type: 'likert', text: 'Saying I do not know is a sign of strength.', scale: { min: 1, max: 5, labels: AGREE } },
  { id: 'l9', type: 'likert', text: 'How much do you like public speaking?', scale: { min: 1, max: 5 } },
  { id: 'l10', type: 'likert', text: 'How much do you enjoy opera?', scale: { min: 1, max: 5 } },
  { id: 'n1', type: 'number', text: 'How many cups of coffee do you drink a day?', scale: { min: 0, max: 20 } },
  { id: 'n2', type: 'number', text: 'How many kilometres do you usually run?', scale: { min: 0, max: 100 } },
  { id: 'n3', type: 'number', text: 'In which year did you start working from home?', scale: { min: 1950, max: 2030 } },
  { id: 'n4', type: 'number', text: 'How many days a week do you go into the office?', scale: { min: 0, max: 7 } },
  { id: 'n5', type: 'number', text: 'How many people were in the startup you joined?' },
  { id: 'n6', type: 'number', text: 'How many years did the startup last?', scale: { min: 0, max: 50 } },
  { id: 'n7', type: 'number', text: 'How many meetings do you have in a week?' },
  { id: 'n8', type: 'number', text: 'How many books do you read in a year?', scale: { min: 0, max: 500 } },
  { id: 'n9', type: 'number', text: 'How many hours do you sleep a night?', scale: { min: 0, max: 24 } },
  { id: 'n10', type: 'number', text: 'How many cats do you own?', scale: { min: 0, max: 30 } },
  { id: 'o1', type: 'open', text: 'How do you deal with burnout?' },
  { id: 'o2', type: 'open', text: 'Why do you spend time on open source?' },
  { id: 'o3', type: 'open', text: 'What was the hardest decision of your career?' },
  { id: 'o4', type: 'open', text: 'What advice would you give your younger self?' },
  { id: 'o5', type: 'open', text: 'What do you think about remote work?' },
  { id: 'o6', type: 'open', text: 'How do you run a code review?' },
  { id: 'o7', type: 'open', text: 'Tell me about a mistake that taught you a lesson.' },
  { id: 'o8', type: 'open', text: 'How do you plan a release?' },
  { id: 'o9', type: 'open', text: 'What do you think about salary negotiation?' },
  { id: 'o10', type: 'open', text: 'What is your favourite opera?' },
];

/** `n` of the questions, the types interleaved (single, multiple, likert, number, open, single, …). */
export function panelQuestions(n = PANEL_QUESTIONS.length): PanelQuestion[] {
  const byType = [0, 1, 2, 3, 4].map((t) => PANEL_QUESTIONS.slice(t * 10, t * 10 + 10));
  const mixed = Array.from({ length: 10 }, (_, i) => byType.map((qs) => qs[i] as PanelQuestion)).flat();
  if (n > mixed.length) throw new Error(`at most ${mixed.length} questions`);
  return mixed.slice(0, n);
}

/**
 * One mind per transcript ("Panelist 1", …), every snapshot created before the first is waited
 * for, so the worker processes them back to back; resolves with the mind ids once all are completed.
 */
export async function buildMinds(sdk: MindsimClient, transcripts: readonly string[], timeoutMs = 120_000): Promise<string[]> {
  const made: Array<{ mindId: string; snapshotId: string }> = [];
  for (const [i, vtt] of transcripts.entries()) {
    const { mind } = await sdk.minds.create({ name: `Panelist ${i + 1}` });
    const r = await sdk.snapshots.create(mind.id, { file: blobOf(vtt), fileName: `interview-${i + 1}.vtt` });
    made.push({ mindId: mind.id, snapshotId: r.mindAssessmentId });
  }
  for (const m of made) {
    const s = await waitFor(sdk, m.mindId, m.snapshotId, timeoutMs);
    if (s.status !== 'completed') throw new Error(`snapshot of ${m.mindId} ${s.status}: ${JSON.stringify(s)}`);
  }
  return made.map((m) => m.mindId);
}

/** Every answer of the panel, in pages of 1,000 (the most one page holds). */
export async function allPanelAnswers(sdk: MindsimClient, panelId: string): Promise<PanelAnswer[]> {
  const out: PanelAnswer[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await sdk.panels.answers(panelId, { limit: 1000, offset });
    out.push(...page.answers);
    if (page.answers.length < 1000) return out;
  }
}

/**
 * What is wrong with a finished panel, empty when nothing is: completed, every unit done once,
 * `done === total === minds × questions`, each (mind, question) answered exactly once (no
 * duplicate, none missing, nothing else), and per question the results counting exactly the
 * answers (responses, answered, no_evidence, each option's and point's count).
 */
export function panelProblems(panel: Panel, answers: readonly PanelAnswer[], mindIds: readonly string[], questions: readonly PanelQuestion[]): string[] {
  const problems: string[] = [];
  const expect = (what: string, got: unknown, want: unknown) => {
    if (got !== want) problems.push(`${what}: ${String(got)}, expected ${String(want)}`);
  };
  const total = mindIds.length * questions.length;
  expect('status', panel.status, 'completed');
  expect('total', panel.total, total);
  expect('done', panel.done, total);
  expect('minds', panel.minds, mindIds.length);
  expect('mindsDone', panel.mindsDone, mindIds.length);
  expect('mindsFailed', panel.mindsFailed, 0);
  expect('answers listed', answers.length, total);
  const seen = new Map<string, number>();
  for (const a of answers) seen.set(`${a.mindId}/${a.questionId}`, (seen.get(`${a.mindId}/${a.questionId}`) ?? 0) + 1);
  const ids = questions.map((q, i) => q.id ?? `q${i + 1}`);
  const wanted = new Set(mindIds.flatMap((m) => ids.map((q) => `${m}/${q}`)));
  for (const [key, n] of seen) {
    if (!wanted.has(key)) problems.push(`an answer nobody asked for: ${key}`);
    else if (n !== 1) problems.push(`${key} answered ${n} times`);
  }
  const missing = [...wanted].filter((key) => !seen.has(key));
  if (missing.length) problems.push(`${missing.length} answers missing, e.g. ${missing.slice(0, 3).join(', ')}`);
  for (const q of questions.map((q, i) => ({ ...q, id: ids[i] as string }))) {
    const r = panel.results?.find((x) => x.questionId === q.id);
    if (!r) {
      problems.push(`no result for ${q.id}`);
      continue;
    }
    const of = answers.filter((a) => a.questionId === q.id);
    const answered = of.filter((a) => a.status === 'answered');
    expect(`${q.id} responses`, r.responses, of.length);
    expect(`${q.id} answered`, r.answered, answered.length);
    expect(`${q.id} noEvidence`, r.noEvidence, of.length - answered.length);
    for (const d of r.distribution ?? []) {
      const count = q.type === 'likert' ? answered.filter((a) => a.value === d.value).length : answered.filter((a) => a.choices.includes(d.option)).length;
      expect(`${q.id} "${d.option}" count`, d.count, count);
    }
  }
  return problems;
}
