/** The tables of EVAL.md: held-out answers, the scenario suite, its misses and the retrieval-mode comparison. */
import { BASELINES, BASELINE_LABELS } from './baselines.ts';
import type { HeldOutRow } from './heldout.ts';
import { auroc, mean } from './metrics.ts';
import type { ScenarioOutcome } from './scenarios.ts';

export const f3 = (n: number): string => (Number.isFinite(n) ? n.toFixed(3) : '–');
export const pct = (n: number): string => (Number.isFinite(n) ? `${(100 * n).toFixed(1)}%` : '–');
const share = (xs: readonly boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);

/** Rows grouped by a key, in first-seen order. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => string): [string, T[]][] {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return [...out];
}

export interface HeldOutSummary {
  answers: number;
  unknown: number;
  engine: { contentF1: number; disc: number; tokenF1: number; rougeL: number; answeredContentF1: number };
  baselines: Record<string, { contentF1: number; disc: number; tokenF1: number }>;
}

export function summariseHeldOut(rows: readonly HeldOutRow[]): HeldOutSummary {
  const m = (pick: (r: HeldOutRow) => number) => mean(rows.map(pick));
  return {
    answers: rows.length,
    unknown: rows.filter((r) => r.unknown).length,
    engine: {
      contentF1: m((r) => r.engine.contentF1),
      disc: m((r) => r.engine.disc),
      tokenF1: m((r) => r.engine.tokenF1),
      rougeL: m((r) => r.engine.rougeL),
      answeredContentF1: mean(rows.filter((r) => !r.unknown).map((r) => r.engine.contentF1)),
    },
    baselines: Object.fromEntries(
      BASELINES.map((b) => [b, { contentF1: m((r) => r.baselines[b].contentF1), disc: m((r) => r.baselines[b].disc), tokenF1: m((r) => r.baselines[b].tokenF1) }]),
    ),
  };
}

const HELD_OUT_HEAD =
  `| | answers | "don't know" | engine cF1 | engine disc | ${BASELINES.map((b) => `${BASELINE_LABELS[b]} cF1 | ${BASELINE_LABELS[b]} disc`).join(' | ')} |\n` +
  `|---|---:|---:|---:|---:|${BASELINES.map(() => '---:|---:|').join('')}`;

function heldOutRow(label: string, rows: readonly HeldOutRow[]): string {
  const s = summariseHeldOut(rows);
  const base = BASELINES.map((b) => `${f3(s.baselines[b]?.contentF1 ?? NaN)} | ${f3(s.baselines[b]?.disc ?? NaN)}`).join(' | ');
  return `| ${label} | ${s.answers} | ${s.unknown} | **${f3(s.engine.contentF1)}** | **${f3(s.engine.disc)}** | ${base} |`;
}

/** The headline held-out table: per format and overall, or per person. */
export function heldOutTable(groups: readonly [string, readonly HeldOutRow[]][]): string[] {
  return [HELD_OUT_HEAD, ...groups.map(([label, rows]) => heldOutRow(label, rows))];
}

/** The secondary table: the engine's scores over all words, next to the random and oracle baselines. */
export function wordScoreTable(groups: readonly [string, readonly HeldOutRow[]][]): string[] {
  return [
    '| | engine token F1 | engine ROUGE-L | engine cF1 where it answered | random token F1 | oracle token F1 |',
    '|---|---:|---:|---:|---:|---:|',
    ...groups.map(([label, rows]) => {
      const s = summariseHeldOut(rows);
      return `| ${label} | ${f3(s.engine.tokenF1)} | ${f3(s.engine.rougeL)} | ${f3(s.engine.answeredContentF1)} | ${f3(s.baselines.random?.tokenF1 ?? NaN)} | ${f3(s.baselines.oracle?.tokenF1 ?? NaN)} |`;
    }),
  ];
}

export interface ScenarioSummary {
  onTopic: number;
  offTopic: number;
  answered: number;
  rightPassage: number;
  declined: number;
  auroc: number;
}

export function summariseScenarios(outcomes: readonly ScenarioOutcome[]): ScenarioSummary {
  const on = outcomes.filter((o) => o.onTopic);
  const off = outcomes.filter((o) => !o.onTopic);
  return {
    onTopic: on.length,
    offTopic: off.length,
    answered: share(on.map((o) => o.answered)),
    rightPassage: share(on.map((o) => o.rightPassage)),
    declined: share(off.map((o) => o.declined)),
    auroc: auroc(
      on.map((o) => o.confidence),
      off.map((o) => o.confidence),
    ),
  };
}

export function scenarioTable(groups: readonly [string, readonly ScenarioOutcome[]][]): string[] {
  return [
    '| | on-topic | answered | right passage | off-topic | off-topic declined | AUROC |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...groups.map(([label, outcomes]) => {
      const s = summariseScenarios(outcomes);
      return `| ${label} | ${s.onTopic} | ${pct(s.answered)} | ${pct(s.rightPassage)} | ${s.offTopic} | ${pct(s.declined)} | ${f3(s.auroc)} |`;
    }),
  ];
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The scenarios the engine got wrong, one row per scenario and kind of miss (formats merged, the first format's evidence shown), at most `cap`. */
export function missTable(outcomes: readonly ScenarioOutcome[], cap: number): string[] {
  const misses = outcomes
    .map((o) => {
      if (o.onTopic && !o.answered) return { o, why: 'not answered' };
      if (o.onTopic && !o.rightPassage) return { o, why: 'wrong passage' };
      if (!o.onTopic && !o.declined) return { o, why: `off-topic answered (confidence ${o.confidence.toFixed(2)})` };
      return null;
    })
    .filter((x): x is { o: ScenarioOutcome; why: string } => x !== null);
  const grouped = groupBy(misses, (m) => `${m.o.id}\n${m.why.replace(/ \(.*/, '')}`);
  // On-topic misses first: they steer retrieval; off-topic answers after them.
  grouped.sort((a, b) => Number(!(a[1][0]?.o.onTopic ?? false)) - Number(!(b[1][0]?.o.onTopic ?? false)));
  if (grouped.length === 0) return ['No misses.'];
  const rows = grouped.slice(0, cap).map(([, ms]) => {
    const first = ms[0];
    if (!first) return '';
    return `| ${first.o.id} | ${cell(first.o.person)} | ${ms.map((m) => m.o.format).join(', ')} | ${first.why} | ${first.o.top ? `${cell(first.o.top)} …` : '–'} |`;
  });
  return [
    '| id | person | formats | miss | top evidence (first words) |',
    '|---|---|---|---|---|',
    ...rows,
    ...(grouped.length > cap ? ['', `… and ${grouped.length - cap} more.`] : []),
  ];
}

export interface ModeResult {
  mode: string;
  heldOut: readonly HeldOutRow[];
  scenarios: readonly ScenarioOutcome[];
  seconds: number;
  /** Why a further mode did not run (the service would not start with it, say). */
  error?: string;
}

/** The engine's headline numbers per retrieval mode (overall, all formats). */
export function modeTable(modes: readonly ModeResult[]): string[] {
  return [
    '| retrieval | held-out answers | "don\'t know" | engine cF1 | engine disc | answered | right passage | off-topic declined | AUROC | run time |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...modes.map((m) => {
      if (m.error) return `| ${m.mode} | failed: ${cell(m.error)} | | | | | | | | ${m.seconds.toFixed(0)} s |`;
      const h = summariseHeldOut(m.heldOut);
      const s = summariseScenarios(m.scenarios);
      return (
        `| ${m.mode} | ${h.answers} | ${h.unknown} | ${f3(h.engine.contentF1)} | ${f3(h.engine.disc)} | ` +
        `${pct(s.answered)} | ${pct(s.rightPassage)} | ${pct(s.declined)} | ${f3(s.auroc)} | ${m.seconds.toFixed(0)} s |`
      );
    }),
  ];
}
