import type { Repos } from '../store/db/repos/index.ts';
import type { TableEntry } from './export-entries.ts';

export const CORRECTION_COLUMNS = ['id', 'createdAt', 'createdBy', 'scenario', 'answer', 'note', 'simulationId'] as const;

/**
 * `corrections.csv` of a mind's export (issue 32): every correction of the mind, oldest first, with
 * who wrote it and when: the person's own words, as the transcript's are. The caller has checked
 * that the mind is the account's.
 */
export function correctionsEntry(repos: Repos, mindId: string): TableEntry {
  return {
    kind: 'table',
    path: 'corrections.csv',
    description: "Every correction of this mind: a scenario and what the person would really say to it (the mind answers from it over the transcript), with a note, the simulation it corrected, when and by whom (an API key's id, a dashboard user or a review link).",
    unit: 'corrections',
    columns: CORRECTION_COLUMNS,
    rows: async function* () {
      for (const c of await repos.corrections.ofMind(mindId)) yield [c.id, c.createdAt, c.createdBy, c.scenario, c.answer, c.note ?? '', c.simulationId ?? ''];
    },
  };
}
