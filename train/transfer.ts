/**
 * The transfer development set (eval/transfer/, hand-written scenarios set in another industry than
 * the person's, for validation people of the corpus) as ranking queries: each scenario asked of its
 * person's mind, the right passages those holding one of its expected phrases. `npm run train` chooses
 * on it beside the corpus's own validation questions; nothing is ever reported from it.
 */
import { containsPhrase } from '../eval/metrics.ts';
import { readTransferSet, type TransferScenario } from '../eval/transfer/set.ts';
import { passageFeatures } from '../src/memory/search/features.ts';
import { readQuery } from '../src/memory/search/query.ts';
import type { Person } from './dataset.ts';
import type { EmbeddingCache } from './embedding-cache.ts';
import { mindOf, queryVectors, type QueryExample } from './examples.ts';

/** The set's scenarios whose person is among these (validation) people, with the texts to embed. */
export function transferScenarios(people: readonly Person[]): { scenarios: Array<TransferScenario & { person: Person }>; texts: string[] } {
  const byKey = new Map(people.map((p) => [`${p.file}|${p.person}`, p]));
  const scenarios = readTransferSet().flatMap((s) => {
    const person = byKey.get(`${s.file}|${s.person}`);
    return person ? [{ ...s, person }] : [];
  });
  const texts = scenarios.flatMap((s) => {
    const q = readQuery(s.scenario);
    return q.context ? [q.ask, q.context] : [q.ask];
  });
  return { scenarios, texts };
}

/** Each scenario as a query over its person's mind (features with the given adapter), labelled by its phrases. */
export function transferQueries(scenarios: ReturnType<typeof transferScenarios>['scenarios'], cache: EmbeddingCache, encoder: string, adapter: readonly number[]): QueryExample[] {
  const minds = new Map<Person, ReturnType<typeof mindOf>>();
  return scenarios.map((s, k) => {
    let mind = minds.get(s.person);
    if (!mind) minds.set(s.person, (mind = mindOf(s.person, cache, encoder)));
    const passages = mind.passages;
    if (!passages) throw new Error(`no passages for ${s.person.person}`);
    const q = readQuery(s.scenario);
    const features = passageFeatures(mind, passages, q, queryVectors(cache, q.ask, q.context), adapter);
    const labels = new Uint8Array(passages.size);
    for (let p = 0; p < passages.size; p++) {
      const text = mind.memoriesAt(range(passages.first[p] as number, passages.last[p] as number)).map((m) => m.text).join(' ');
      labels[p] = s.passages.some((phrase) => containsPhrase(text, phrase)) ? 1 : 0;
    }
    return { person: s.person.person, example: k, features, labels, ask: cache.get(q.ask), passages, docs: mind.size };
  });
}

const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
