/**
 * A scenario as users write it: context first, the ask last ("We're a 12-person agency and a
 * client wants us on call at weekends. Would you take the deal?"). The search looks for the ask;
 * the context only helps choose among passages that answer it, and earlier turns of a
 * conversation stand in for an ask too thin to search on its own ("How significant has that
 * been for you?").
 */
import { LRUCache } from 'lru-cache';
import { readTagged, termTokens, type TermToken } from '../sentences.ts';

export interface ScenarioParts {
  /** The sentence(s) that ask something. */
  ask: string;
  /** Everything before the ask. */
  context: string;
}

/** An ask with fewer content words than this leans on what came before it. */
export const THIN_ASK_TERMS = 2;

/** Splits a scenario into its ask (the last question, with a very short lead-in) and its context. */
export function splitScenario(scenario: string): ScenarioParts {
  return splitSentencesOf(readTagged(scenario).sentences, scenario);
}

function splitSentencesOf(sentences: readonly string[], scenario: string): ScenarioParts {
  if (sentences.length <= 1) return { ask: scenario.trim(), context: '' };
  let at = sentences.length - 1;
  for (let i = sentences.length - 1; i >= 0; i--) {
    if ((sentences[i] ?? '').includes('?')) {
      at = i;
      break;
    }
  }
  // "What about the weekends? Would you take it?": a bare ask takes the sentence before it along.
  while (at > 0 && termTokens(sentences.slice(at).join(' ')).length < THIN_ASK_TERMS) at--;
  return { ask: sentences.slice(at).join(' '), context: sentences.slice(0, at).join(' ') };
}

export interface ScenarioTokens {
  askTokens: TermToken[];
  contextTokens: TermToken[];
  /** The latest earlier messages to the person (at most HISTORY_MESSAGES): searched at a lower weight than the ask. */
  historyTokens: TermToken[];
  /** True when the ask alone was too thin, so the earlier messages stand in for its subject. */
  leansOnHistory: boolean;
}

/** How many of the latest earlier messages to the person join the search. */
export const HISTORY_MESSAGES = 2;

/**
 * The scenario read once: its parts and the tokens to search with. `priorTurns` (oldest first)
 * are the earlier messages to the person in a conversation: when the ask is thin, the latest two
 * stand in for its subject (query.ts).
 */
export function scenarioTokens(scenario: string, priorTurns: readonly string[] = []): ScenarioTokens & ScenarioParts {
  if (priorTurns.length > 0) return readScenario(scenario, priorTurns);
  // Without history the reading depends on the text alone: a panel asks every mind the same questions.
  let read = readScenarios.get(scenario);
  if (!read) readScenarios.set(scenario, (read = readScenario(scenario, [])));
  return read;
}

/**
 * Scenarios read lately (without history), shared by every mind: wink-nlp's reading of a text is
 * most of what a typed answer costs beyond the search itself. Callers never change what they get.
 */
const readScenarios = new LRUCache<string, ScenarioTokens & ScenarioParts>({ max: 512 });

function readScenario(scenario: string, priorTurns: readonly string[]): ScenarioTokens & ScenarioParts {
  const parts = splitScenario(scenario);
  const ask = termTokens(parts.ask);
  const own = { ...parts, askTokens: ask, contextTokens: termTokens(parts.context) };
  if (priorTurns.length === 0) return { ...own, historyTokens: [], leansOnHistory: false };
  const historyTokens = termTokens(priorTurns.slice(-HISTORY_MESSAGES).join(' '));
  return { ...own, historyTokens, leansOnHistory: new Set(ask.map((t) => t.stem)).size < THIN_ASK_TERMS };
}
