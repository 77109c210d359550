/**
 * Three rewordings of a question, for the corrections' measurement and evaluation (issue 32): a
 * correction must answer its scenario asked again in other words. Deterministic:
 * 1. eval/paraphrase.ts: fillers dropped, a leading clause moved, a few synonyms;
 * 2. the ask alone: the question's last sentence(s) as the engine reads them (search/scenario.ts),
 *    the lead-in dropped, reworded as in 1;
 * 3. the question put another way round: a lead-in ("I'm curious:", "Let me ask you this:", …)
 *    before the rewording of 1, its first word lowered.
 */
import { splitScenario } from '../src/memory/search/scenario.ts';
import { paraphrase } from './paraphrase.ts';

const LEADS = ["I'm curious:", 'Let me ask you this:', 'Quick question:', "Here's something I've wondered:"];

const lowerFirst = (s: string): string => (/^I\b/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

export function threeParaphrases(question: string): [string, string, string] {
  const first = paraphrase(question);
  const { ask } = splitScenario(question);
  const second = paraphrase(ask) || first;
  const third = `${LEADS[hash(question) % LEADS.length]} ${lowerFirst(first)}`;
  return [first, second, third];
}
