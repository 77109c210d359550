/**
 * `node --conditions=mindsim-source eval/reader-samples.ts [dir] [--seed N] [--count N] [--check] [--cache DIR] [--show ID,…]`
 *
 * Twelve answers of the offline engine, drawn by a fixed seed from the on-topic scenarios of the 22
 * interviews' suite (eval/scenarios/), printed in full as Markdown: what a reader sees, for EVAL.md's
 * "before" and "after". Minds are built in this process from each interview's turns (the guest as the
 * person, the real sentence encoder: testkit/minds.ts), as the service builds them from a transcript.
 *
 * `--check` also answers every scenario of the suite (on- and off-topic) and prints the reader check's
 * numbers (eval/reader-check.ts) over the answered ones, with each finding. `--cache DIR` keeps the
 * minds' memories and passage vectors in DIR between runs (a mind of a two-hour interview takes seconds
 * to embed); delete it when the memory build or the encoder changes. `--show` prints the scenarios named
 * (their ids) instead of the draw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GroundedEngine } from '../src/engines/grounded.ts';
import type { SimulationResult } from '../src/engines/types.ts';
import { buildMemoryBank } from '../src/memory/build.ts';
import { embedForStorage, passagesOf } from '../src/memory/build/passages.ts';
import { MindMemory } from '../src/memory/mind-memory.ts';
import type { SnapshotPassages } from '../src/memory/search/passage-vectors.ts';
import { seededRandom } from '../src/memory/seeded-random.ts';
import type { StoredMemory } from '../src/memory/types.ts';
import { testEncoder, testSearcher } from '../testkit/minds.ts';
import { interviewsDir, readInterviews, REPO_ROOT, type Interview } from './interviews.ts';
import { checkRun } from './reader-check.ts';
import { isDecline, loadScenarios, type Suite } from './scenarios.ts';

interface Stored {
  memories: StoredMemory[];
  passages: { snapshotId: string; encoder: string; spans: SnapshotPassages['spans']; dimensions: number; data: string; scales: string };
}

/** A mind of the whole interview, the guest as the person; from `cache` when it holds one. */
async function mindOf(interview: Interview, cache: string | null): Promise<MindMemory> {
  const file = cache ? path.join(cache, `${interview.file}.json`) : null;
  let stored: Stored;
  if (file && fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
  else {
    const snapshotId = 'snap-1';
    const bank = buildMemoryBank({ utterances: interview.turns.map((t) => ({ ...t, speaker: t.speaker ?? null })), mindName: interview.guest, speaker: interview.guest });
    const memories = bank.memories.map((m) => ({ ...m, snapshotId }));
    const { spans, texts } = passagesOf(memories);
    const { encoder, vectors } = await embedForStorage(await testEncoder(), texts);
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
    stored = { memories, passages: { snapshotId, encoder, spans, dimensions: vectors.dimensions, data: bytes(vectors.data), scales: bytes(vectors.scales) } };
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(stored));
    }
  }
  const p = stored.passages;
  const data = Buffer.from(p.data, 'base64');
  const scales = Buffer.from(p.scales, 'base64');
  const vectors = {
    dimensions: p.dimensions,
    data: new Int8Array(data.buffer, data.byteOffset, data.byteLength),
    scales: new Float32Array(scales.buffer.slice(scales.byteOffset, scales.byteOffset + scales.byteLength)),
  };
  return MindMemory.build(interview.file, stored.memories, [{ snapshotId: p.snapshotId, encoder: p.encoder, spans: p.spans, vectors }], p.encoder);
}

interface Asked {
  suite: Suite;
  id: string;
  scenario: string;
  onTopic: boolean;
  otherIndustry: boolean;
}

const quoteBlock = (text: string) => text.split('\n').map((l) => `> ${l}`).join('\n');

function shown(n: number, a: Asked, r: SimulationResult): string {
  const evidence = r.evidence.slice(0, 3).map((e, i) => `${i + 1}. (${e.score}) ${e.text.split(/\s+/).slice(0, 40).join(' ')}${e.text.split(/\s+/).length > 40 ? ' …' : ''}`);
  return [
    `### ${n}. ${a.suite.person} — ${a.id}${a.otherIndustry ? ' (another industry)' : ''}`,
    '',
    `**Scenario:** ${a.scenario}`,
    '',
    `**Confidence:** ${r.confidence}`,
    '',
    ...(['saying', 'thinking', 'feeling', 'acting'] as const).flatMap((f) => [`**${f}:**`, '', quoteBlock(r.analysis[f]), '']),
    '**Evidence (first three, first 40 words):**',
    '',
    ...evidence,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seed: { type: 'string', default: '29' },
      count: { type: 'string', default: '12' },
      check: { type: 'boolean', default: false },
      cache: { type: 'string' },
      show: { type: 'string' },
    },
  });
  const interviews = readInterviews(interviewsDir(positionals[0]));
  const { suites } = loadScenarios(path.join(REPO_ROOT, 'eval/scenarios'), interviews);
  const all: Asked[] = suites.flatMap((suite) => [
    ...suite.onTopic.map((s) => ({ suite, id: s.id, scenario: s.scenario, onTopic: true, otherIndustry: s.otherIndustry === true })),
    ...suite.offTopic.map((s) => ({ suite, id: s.id, scenario: s.scenario, onTopic: false, otherIndustry: false })),
  ]);
  // The draw: a seeded shuffle of the on-topic scenarios, the first `count`, shown in suite order.
  const random = seededRandom(Number(values.seed));
  const onTopic = all.filter((a) => a.onTopic);
  for (let i = onTopic.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [onTopic[i], onTopic[j]] = [onTopic[j] as Asked, onTopic[i] as Asked];
  }
  const named = new Set((values.show ?? '').split(',').filter(Boolean));
  const drawn = new Set(named.size ? all.filter((a) => named.has(a.id)) : onTopic.slice(0, Number(values.count)));
  const asked = values.check ? all : all.filter((a) => drawn.has(a));
  const cache = values.cache ? path.resolve(values.cache) : null;
  const engine = new GroundedEngine(testSearcher());
  const minds = new Map<string, MindMemory>();
  const answers = new Map<Asked, SimulationResult>();
  for (const a of asked) {
    let mind = minds.get(a.suite.file);
    if (!mind) minds.set(a.suite.file, (mind = await mindOf(a.suite.interview, cache)));
    answers.set(a, await engine.simulate({ mindName: a.suite.person, memory: mind, scenario: a.scenario }));
  }
  const out = [`# Twelve answers (seed ${values.seed}), drawn from the on-topic scenarios of eval/scenarios`, ''];
  [...drawn]
    .sort((x, y) => all.indexOf(x) - all.indexOf(y))
    .forEach((a, i) => {
      const r = answers.get(a);
      if (r) out.push(shown(i + 1, a, r));
    });
  if (values.check) {
    const answered = [...answers].filter(([, r]) => r.evidence.length > 0 && !isDecline(r.analysis.saying));
    const run = checkRun(answered.map(([, r]) => ({ ...r.analysis, evidence: r.evidence.map((e) => e.text) })));
    out.push(
      '## What a reader sees (every answered scenario)',
      '',
      `answers checked ${run.checked}; with a shared-words field ${run.sharedWords}; cut sayings ${run.cutSayings}; with filler ${run.filler}`,
      `recurring phrases: ${run.recurring.map((p) => `"${p}"`).join(', ') || 'none'}`,
      '',
    );
    run.findings.forEach((f, i) => {
      const [a] = answered[i] ?? [];
      if (!a || (f.shared.length === 0 && f.cut === null && f.filler.length === 0)) return;
      const r = answered[i]?.[1].analysis;
      const shared = f.shared.map((s) => `${s.a}~${s.b} ${s.share.toFixed(2)} (${s.a}: "${r?.[s.a].slice(0, 90)}…"; ${s.b}: "${r?.[s.b].slice(0, 90)}…")`).join(', ');
      const cut = f.cut && `cut: ${f.cut} ("…${r?.saying.slice(-90)}")`;
      out.push(`- ${a.id}: ${[shared && `shared ${shared}`, cut, f.filler.length ? `filler: ${f.filler.join(' | ')}` : ''].filter(Boolean).join('; ')}`);
    });
  }
  console.log(out.join('\n'));
}

await main();
