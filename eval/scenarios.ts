/**
 * The scenario suite (eval/scenarios/README.md): one JSON file per transcript, validated on load —
 * a malformed file, a wrong person or a passage that is not in the person's own turns fails the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UNKNOWN_SAYING } from '../src/engines/grounded.ts';
import { containsPhrase, normalise } from './metrics.ts';
import { shownPath, type Interview } from './interviews.ts';
import type { AnswerFields, CheckedAnswer } from './reader-check.ts';

const Scenario = z.object({ id: z.string().min(1), scenario: z.string().min(1) });
const OnTopic = Scenario.extend({ passages: z.array(z.string().min(1)).min(1), otherIndustry: z.boolean().optional() });
const SuiteFile = z.object({
  file: z.string().endsWith('.md'),
  person: z.string().min(1),
  onTopic: z.array(OnTopic),
  offTopic: z.array(Scenario).default([]),
});
export type SuiteFile = z.infer<typeof SuiteFile>;

export interface Suite extends SuiteFile {
  interview: Interview;
}

/** Below this confidence an off-topic answer counts as declined. */
export const DECLINE_CONFIDENCE = 0.35;
/** The right passage must be in one of this many evidence items (evidence comes best first). */
export const TOP_EVIDENCE = 3;

export interface LoadedSuites {
  suites: Suite[];
  /** Scenario files whose transcript is not among the transcripts read (another folder): not run. */
  skipped: string[];
}

/**
 * Every `*.json` in `dir`, checked against the transcripts in `interviews`: the schema, `file` naming
 * the transcript the JSON is named after, `person` its guest, unique ids, and every passage found in
 * one of the guest's turns (lower-cased, runs of non-letters/digits as one space). All problems are
 * collected and thrown as one error.
 */
export function loadScenarios(dir: string, interviews: readonly Interview[]): LoadedSuites {
  if (!fs.existsSync(dir)) throw new Error(`scenario folder ${shownPath(dir)} does not exist`);
  const byFile = new Map(interviews.map((i) => [i.file, i]));
  const problems: string[] = [];
  const suites: Suite[] = [];
  const skipped: string[] = [];
  const ids = new Map<string, string>();
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const name of files) {
    const where = path.join(dir, name);
    const shown = shownPath(where);
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(where, 'utf8'));
    } catch (err) {
      problems.push(`${shown}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = SuiteFile.safeParse(json);
    if (!parsed.success) {
      problems.push(`${shown}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      continue;
    }
    const suite = parsed.data;
    const expected = name.replace(/\.json$/, '.md');
    if (suite.file !== expected) problems.push(`${shown}: "file" is ${suite.file}, expected ${expected} (the transcript the JSON is named after)`);
    for (const s of [...suite.onTopic, ...suite.offTopic]) {
      const seen = ids.get(s.id);
      if (seen) problems.push(`${shown}: id ${s.id} is also used in ${seen}`);
      ids.set(s.id, name);
    }
    const interview = byFile.get(suite.file);
    if (!interview) {
      skipped.push(name);
      continue;
    }
    if (normalise(suite.person) !== normalise(interview.guest)) {
      problems.push(`${shown}: "person" is ${suite.person}, but the guest of ${suite.file} is ${interview.guest}`);
      continue;
    }
    const guestTurns = interview.turns.filter((t) => t.speaker === interview.guest).map((t) => t.text);
    for (const s of suite.onTopic) {
      for (const p of s.passages) {
        if (!guestTurns.some((t) => containsPhrase(t, p))) problems.push(`${shown}: ${s.id}: passage "${p}" is not in any turn of ${interview.guest} in ${suite.file}`);
      }
    }
    suites.push({ ...suite, interview });
  }
  if (problems.length) throw new Error(`invalid scenario files (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`);
  return { suites, skipped };
}

/** What /simulate answered, as far as the suite looks at it. */
export interface Reply {
  saying: string;
  confidence: number;
  evidence: { text: string }[];
  /** The four fields, for the reader check (eval/reader-check.ts). */
  analysis?: AnswerFields;
}

export interface ScenarioOutcome {
  id: string;
  file: string;
  person: string;
  format: string;
  onTopic: boolean;
  /** An on-topic scenario set in another industry than the person's (eval/scenarios/README.md). */
  otherIndustry: boolean;
  confidence: number;
  /** An answer with evidence that is not the explicit decline. */
  answered: boolean;
  /** An expected passage in one of the top evidence items (on-topic only). */
  rightPassage: boolean;
  /** Confidence below the threshold, no evidence, or the explicit decline. */
  declined: boolean;
  /** The first words of the top evidence item ('' without evidence). */
  top: string;
  /** An answered scenario's four fields and evidence texts, for the reader check; null when declined. */
  read: CheckedAnswer | null;
}

export const isDecline = (saying: string): boolean => saying.trim() === UNKNOWN_SAYING;

export function judge(suite: Suite, scenario: { id: string; passages?: string[]; otherIndustry?: boolean | undefined }, format: string, reply: Reply): ScenarioOutcome {
  const explicit = isDecline(reply.saying);
  const top = reply.evidence.slice(0, TOP_EVIDENCE);
  const passages = scenario.passages ?? [];
  return {
    id: scenario.id,
    file: suite.file,
    person: suite.person,
    format,
    onTopic: passages.length > 0,
    otherIndustry: scenario.otherIndustry === true,
    confidence: reply.confidence,
    answered: reply.evidence.length > 0 && !explicit,
    rightPassage: passages.some((p) => top.some((e) => containsPhrase(e.text, p))),
    declined: reply.confidence < DECLINE_CONFIDENCE || reply.evidence.length === 0 || explicit,
    top: (reply.evidence[0]?.text ?? '').split(/\s+/).filter(Boolean).slice(0, 10).join(' '),
    read: reply.analysis && reply.evidence.length > 0 && !explicit ? { ...reply.analysis, evidence: reply.evidence.map((e) => e.text) } : null,
  };
}
