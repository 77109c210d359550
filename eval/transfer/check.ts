/**
 * Checks the transfer development set (eval/transfer/README.md) and prints its counts:
 * `node --conditions=mindsim-source eval/transfer/check.ts`. Exits non-zero on any problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseTurns } from '../interviews.ts';
import { containsPhrase, normalise } from '../metrics.ts';
import { splitSentences } from '../../src/memory/sentences.ts';
import { CORPUS_DIR, splitOf } from '../../train/corpus.ts';
import { loadTransferFiles } from './set.ts';

const SEED = 20261126;
const MIN_WORDS = 4;
const MAX_WORDS = 12;
/** A scenario sharing this many consecutive words with the person's turns is flagged (a warning). */
const COPIED_WORDS = 6;

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function ngrams(text: string, n: number): Set<string> {
  const w = normalise(text).split(' ');
  const out = new Set<string>();
  for (let i = 0; i + n <= w.length; i++) out.add(w.slice(i, i + n).join(' '));
  return out;
}

const { files, problems } = loadTransferFiles();
const warnings: string[] = [];
const ids = new Map<string, string>();
const people = new Map<string, string>();
let scenarios = 0;

for (const f of files) {
  const at = (msg: string) => problems.push(`${f.name}: ${msg}`);
  const expected = `${f.file.replace('/', '-').replace(/\.md$/, '')}-${slug(f.person)}.json`;
  if (f.name !== expected) at(`file name should be ${expected}`);
  if (splitOf(f.person, SEED) !== 'validation') at(`${f.person} is in the ${splitOf(f.person, SEED)} split, not validation`);
  const key = normalise(f.person);
  const other = people.get(key);
  if (other) at(`${f.person} also has ${other} (one episode per person)`);
  people.set(key, f.name);
  const where = path.join(CORPUS_DIR, f.file);
  if (!fs.existsSync(where)) {
    at(`${f.file} is not in the corpus`);
    continue;
  }
  const own = parseTurns(fs.readFileSync(where, 'utf8'))
    .filter((t) => t.speaker === f.person)
    .map((t) => t.text);
  if (!own.length) {
    at(`${f.person} never speaks in ${f.file}`);
    continue;
  }
  const sentences = own.map((t) => splitSentences(t));
  const said = new Set(own.flatMap((t) => [...ngrams(t, COPIED_WORDS)]));
  const numbers = new Set<string>();
  for (const s of [...f.onTopic, ...f.offTopic]) {
    const m = /^tr-(\d+)-\d+$/.exec(s.id);
    if (!m) at(`id ${s.id} is not tr-<n>-<k>`);
    else numbers.add(m[1] ?? '');
    const seen = ids.get(s.id);
    if (seen) at(`id ${s.id} is also used in ${seen}`);
    ids.set(s.id, f.name);
    const count = s.scenario.split(/(?<=[.!?])\s+(?=\S)/).length;
    if (count > 3) at(`${s.id}: ${count} sentences (at most 3)`);
  }
  if (numbers.size > 1) at(`ids use several person numbers (${[...numbers].join(', ')})`);
  for (const s of f.onTopic) {
    scenarios++;
    const copied = [...ngrams(s.scenario, COPIED_WORDS)].filter((g) => said.has(g));
    if (copied.length) warnings.push(`${f.name}: ${s.id}: scenario repeats the person's words "${copied[0]}"`);
    const turns = new Set<number>();
    for (const p of s.passages) {
      const words = p.split(/\s+/).filter(Boolean).length;
      if (words < MIN_WORDS || words > MAX_WORDS) at(`${s.id}: passage "${p}" has ${words} words (${MIN_WORDS}–${MAX_WORDS})`);
      if (/\\|\*\*|\[\d\d:/.test(p)) at(`${s.id}: passage "${p}" holds Markdown`);
      const turn = own.findIndex((t) => containsPhrase(t, p));
      if (turn >= 0) turns.add(turn);
      if (turn < 0) at(`${s.id}: passage "${p}" is not in any turn of ${f.person}`);
      else if (!sentences.some((ss) => ss.some((x) => containsPhrase(x, p)))) at(`${s.id}: passage "${p}" crosses a sentence boundary`);
    }
    if (turns.size > 1) warnings.push(`${f.name}: ${s.id}: passages come from ${turns.size} different turns`);
  }
}

for (const w of warnings) console.log(`warning: ${w}`);
if (problems.length) {
  console.error(`invalid transfer set (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`);
  process.exitCode = 1;
}
console.log(`transfer set: ${files.length} files, ${people.size} people, ${scenarios} scenarios${problems.length ? `, ${problems.length} problems` : ''}`);
