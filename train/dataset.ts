/**
 * The fixed dataset of training: person-episodes of the corpus chosen in a seeded order, one episode
 * per person, until each split has its quota; with every text the encoder must embed for them.
 */
import { seededRandom } from '../src/memory/seeded-random.ts';
import { passagesOf, type PassageSpan } from '../src/memory/build/passages.ts';
import { splitScenario } from '../src/memory/search/scenario.ts';
import { readQuery } from '../src/memory/search/query.ts';
import { CORPUS_DIR, corpusFiles, personEpisodes, type PersonEpisode, type QaExample, type Split } from './corpus.ts';

/** People per split. The test split must have ≥ 300 people (issue 22); the others bound training's cost. */
export const QUOTAS: Record<Split, number> = { train: 5000, validation: 110, test: 310 };
/** A question a user could ask: at least this many words (a bare "Right now?" is no scenario). */
export const MIN_QUESTION_WORDS = 6;
/** A person-episode is used when it has at least this many such Q/A pairs. */
export const MIN_PAIRS = 3;
/** Longer person-episodes are skipped: they would dominate training and its embedding cost. */
export const MAX_PERSON_WORDS = 12_000;

export interface Example extends QaExample {
  ask: string;
  context: string;
}

export interface Person extends Omit<PersonEpisode, 'pairs'> {
  spans: PassageSpan[];
  passages: string[];
  examples: Example[];
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

export function buildDataset(seed: number, quotas: Record<Split, number> = QUOTAS, dir = CORPUS_DIR): Person[] {
  const files = corpusFiles(dir);
  const random = seededRandom(seed);
  const order = files.map((f) => ({ f, r: random() })).sort((a, b) => a.r - b.r).map((x) => x.f);
  const taken = new Set<string>();
  const count: Record<Split, number> = { train: 0, validation: 0, test: 0 };
  const people: Person[] = [];
  for (const file of order) {
    if ((Object.keys(quotas) as Split[]).every((s) => count[s] >= quotas[s])) break;
    for (const pe of personEpisodes(file, seed, dir)) {
      const key = pe.person.trim().toLowerCase();
      if (taken.has(key) || count[pe.split] >= quotas[pe.split] || pe.words > MAX_PERSON_WORDS) continue;
      const pairs = pe.pairs.filter((p) => words(p.question) >= MIN_QUESTION_WORDS);
      if (pairs.length < MIN_PAIRS) continue;
      taken.add(key);
      count[pe.split]++;
      const { spans, texts } = passagesOf(pe.memories);
      people.push({
        ...pe,
        spans,
        passages: texts,
        examples: pairs.map((p) => ({ ...p, ...splitScenario(p.question) })),
      });
    }
  }
  return people;
}

/** Every text of the dataset the encoder embeds: passages, and the asks and contexts as the engine reads them (search/query.ts). */
export function textsOf(people: readonly Person[], scenarios: readonly string[]): string[] {
  const out: string[] = [];
  const queryTexts = (scenario: string) => {
    const q = readQuery(scenario);
    out.push(q.ask, ...(q.context ? [q.context] : []));
  };
  for (const p of people) {
    out.push(...p.passages);
    for (const e of p.examples) queryTexts(e.question);
  }
  for (const s of scenarios) queryTexts(s);
  return out;
}
