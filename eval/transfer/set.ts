/**
 * The transfer development set (eval/transfer/README.md): scenarios set in another industry than
 * the person's, for validation-split people of the training corpus. Used to choose settings, never
 * to report.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from '../interviews.ts';

export const TRANSFER_DIR = path.join(REPO_ROOT, 'eval', 'transfer');

const OnTopic = z.object({
  id: z.string().min(1),
  scenario: z.string().min(1),
  passages: z.array(z.string().min(1)).min(1).max(3),
  otherIndustry: z.literal(true),
});
const OffTopic = z.object({ id: z.string().min(1), scenario: z.string().min(1) });
const TransferFile = z.object({
  /** `show/episode.md`, relative to the corpus's changelog folder. */
  file: z.string().regex(/^[a-z0-9-]+\/[^/]+\.md$/),
  person: z.string().min(1),
  onTopic: z.array(OnTopic).min(2),
  offTopic: z.array(OffTopic).default([]),
});
export type TransferFile = z.infer<typeof TransferFile> & { name: string };

export interface TransferScenario {
  file: string;
  person: string;
  id: string;
  scenario: string;
  passages: string[];
}

/** Every `*.json` of the folder, parsed; files that do not match the schema are returned as problems. */
export function loadTransferFiles(dir = TRANSFER_DIR): { files: TransferFile[]; problems: string[] } {
  const files: TransferFile[] = [];
  const problems: string[] = [];
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const name of names) {
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch (err) {
      problems.push(`${name}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = TransferFile.safeParse(json);
    if (parsed.success) files.push({ ...parsed.data, name });
    else problems.push(`${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return { files, problems };
}

/** The on-topic scenarios of the set, flat; throws if a file is malformed (run check.ts for the full check). */
export function readTransferSet(dir = TRANSFER_DIR): TransferScenario[] {
  const { files, problems } = loadTransferFiles(dir);
  if (problems.length) throw new Error(`invalid transfer files:\n  ${problems.join('\n  ')}`);
  return files.flatMap((f) => f.onTopic.map((s) => ({ file: f.file, person: f.person, id: s.id, scenario: s.scenario, passages: s.passages })));
}
