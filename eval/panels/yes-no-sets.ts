/**
 * Typed yes/no versions of scenario sets, for counting answers that contradict their own evidence:
 * every on-topic scenario set in another industry whose ask is a yes/no question ("…Should I just
 * hand her the keys?") becomes a single-choice question with the options Yes and No, its text the
 * whole scenario (context first, the ask last, as a panel may put it). Two sets:
 * - the 22 interviews' other-industry scenarios (eval/scenarios/*.json), asked of the whole mind;
 * - the transfer development set (eval/transfer/*.json: validation people of the corpus), asked of the
 *   mind of the corpus episode it names. It is a development set: the typed answers' readers were
 *   looked at on it, never fitted on it (their numbers are fitted on train people: train/typed.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Question } from '../../src/engines/questions.ts';
import { splitScenario } from '../../src/memory/search/scenario.ts';
import type { Turn } from '../../testkit/fixtures.ts';
import { parseTurns, REPO_ROOT } from '../interviews.ts';
import { CORPUS_DIR } from '../../train/corpus.ts';
import { readTransferSet } from '../transfer/set.ts';

/** An ask answered by yes or no: an auxiliary verb first, no alternatives offered. */
const YES_NO_ASK = /^(?:should|would|do|does|did|is|are|am|can|could|will|was|were|have|has|shall|must)\b(?!.*\bor\b)/i;

export interface YesNoItem {
  set: 'scenarios' | 'transfer';
  /** The transcript (eval/scenarios: the interview's file; transfer: the corpus episode) and the person. */
  file: string;
  person: string;
  question: Question;
}

const yesNoQuestion = (id: string, scenario: string): Question | null => {
  const ask = splitScenario(scenario).ask.trim();
  const last = ask.split(/(?<=[.!?])\s+/).at(-1) ?? ask;
  return YES_NO_ASK.test(last) ? { id, text: scenario, type: 'single', options: ['Yes', 'No'] } : null;
};

interface ScenarioFile {
  file: string;
  person: string;
  onTopic: Array<{ id: string; scenario: string; otherIndustry?: boolean }>;
}

/** The 22 interviews' other-industry scenarios whose ask is yes/no. */
export function scenarioYesNo(dir = path.join(REPO_ROOT, 'eval', 'scenarios')): YesNoItem[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const suite = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as ScenarioFile;
      return suite.onTopic.flatMap((s) => {
        const question = s.otherIndustry ? yesNoQuestion(s.id, s.scenario) : null;
        return question ? [{ set: 'scenarios' as const, file: suite.file, person: suite.person, question }] : [];
      });
    });
}

/** The transfer set's scenarios whose ask is yes/no (empty when the folder holds none). */
export function transferYesNo(): YesNoItem[] {
  return readTransferSet().flatMap((s) => {
    const question = yesNoQuestion(s.id, s.scenario);
    return question ? [{ set: 'transfer' as const, file: s.file, person: s.person, question }] : [];
  });
}

/** A transfer episode's turns, read in place from the corpus. */
export const corpusTurns = (file: string): Turn[] => parseTurns(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'));
