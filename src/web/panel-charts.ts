/**
 * The geometry of a panel question's bar chart (drawn by `views/partials/panel-question.eta` as
 * SVG, like the usage chart: no chart script). Horizontal bars, one per option (single,
 * multiple), scale point (likert), answered (open) or value / value range (number), then the
 * `no_evidence` bar apart; every bar is as long as its share of the question's responses, and
 * links to the answers behind it.
 */
import type { QuestionResult } from '../domain/panel-results.ts';

const CHART = { width: 640, labelWidth: 210, barRoom: 340, row: 30, bar: 20, top: 6, gap: 12 };
const MAX_LABEL = 30;
/** A number question's values as bars of their own up to this many distinct values; beyond, ranges. */
const MAX_DISTINCT = 12;
const BINS = 8;

export type BarKind = 'option' | 'answered' | 'range' | 'abstain';

export interface ChartBar {
  kind: BarKind;
  /** The label drawn (shortened); `full` in the bar's <title> and the table. */
  label: string;
  full: string;
  count: number;
  /** count / answered (null for the no-evidence bar and ranges, which are not shares of the answered). */
  share: number | null;
  weightedShare: number | null;
  /** The answers behind the bar (null: a range of numbers, which no filter names). */
  href: string | null;
  /** What the bar's link says to assistive technology. */
  description: string;
  y: number;
  w: number;
}

export interface QuestionChart {
  width: number;
  height: number;
  labelWidth: number;
  barHeight: number;
  /** Where the no-evidence bar's separator runs (null: none). */
  separatorY: number | null;
  bars: ChartBar[];
}

/** `/panels/{id}/answers` filtered to one question and (optionally) one option, value or status. */
export function answersHref(panelId: string, questionId: string, filter: { option?: string; value?: number; status?: 'answered' | 'no_evidence' } = {}): string {
  const q = new URLSearchParams({ questionId });
  if (filter.option !== undefined) q.set('option', filter.option);
  if (filter.value !== undefined) q.set('value', String(filter.value));
  if (filter.status !== undefined) q.set('status', filter.status);
  return `/panels/${panelId}/answers?${q.toString()}`;
}

const shorten = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);
const pct = (x: number) => `${Math.round(x * 100)}%`;
const answers = (n: number) => `${n} answer${n === 1 ? '' : 's'}`;
/** Numbers as people read them: at most two decimals, no trailing zeros. */
export const num = (n: number) => String(Math.round(n * 100) / 100);

type BarInput = Omit<ChartBar, 'y' | 'w' | 'label'>;

/** The bars of one question: its distribution (or answered / value bars), then no evidence. */
export function questionChart(panelId: string, r: QuestionResult, numbers: readonly number[] = []): QuestionChart {
  const main: BarInput[] = [];
  if (r.distribution) {
    for (const d of r.distribution) {
      const full = r.type === 'likert' && d.value !== undefined && d.option !== String(d.value) ? `${d.value} · ${d.option}` : d.option;
      main.push({
        kind: 'option',
        full,
        count: d.count,
        share: d.share,
        weightedShare: d.weightedShare,
        href: answersHref(panelId, r.questionId, d.value !== undefined && r.type === 'likert' ? { value: d.value } : { option: d.option }),
        description: `${full}: ${answers(d.count)}, ${pct(d.share)} of those who answered. List them.`,
      });
    }
  } else if (r.type === 'number') {
    main.push(...numberBars(panelId, r, numbers));
  } else {
    main.push({
      kind: 'answered',
      full: 'Answered',
      count: r.answered,
      share: null,
      weightedShare: null,
      href: answersHref(panelId, r.questionId, { status: 'answered' }),
      description: `Answered: ${answers(r.answered)}. List them.`,
    });
  }
  const abstain: BarInput = {
    kind: 'abstain',
    full: 'No evidence',
    count: r.noEvidence,
    share: null,
    weightedShare: null,
    href: answersHref(panelId, r.questionId, { status: 'no_evidence' }),
    description: `No evidence: ${r.noEvidence} mind${r.noEvidence === 1 ? '' : 's'} said nothing that bears on the question. List them.`,
  };
  const scale = Math.max(1, r.responses, ...main.map((b) => b.count));
  const place = (b: BarInput, y: number): ChartBar => ({ ...b, label: shorten(b.full), y, w: b.count === 0 ? 0 : Math.max(2, Math.round((b.count / scale) * CHART.barRoom)) });
  const bars = main.map((b, i) => place(b, CHART.top + i * CHART.row));
  const abstainY = CHART.top + main.length * CHART.row + CHART.gap;
  bars.push(place(abstain, abstainY));
  return {
    width: CHART.width,
    height: abstainY + CHART.row,
    labelWidth: CHART.labelWidth,
    barHeight: CHART.bar,
    separatorY: abstainY - CHART.gap / 2 - (CHART.row - CHART.bar) / 2,
    bars,
  };
}

/** A number question: a bar per distinct value (each links to its answers), or equal ranges when they are many. */
function numberBars(panelId: string, r: QuestionResult, numbers: readonly number[]): BarInput[] {
  if (numbers.length === 0) return [];
  const counts = new Map<number, number>();
  for (const n of numbers) counts.set(n, (counts.get(n) ?? 0) + 1);
  const distinct = [...counts.keys()].sort((a, b) => a - b);
  if (distinct.length <= MAX_DISTINCT) {
    return distinct.map((v) => {
      const count = counts.get(v) ?? 0;
      return {
        kind: 'option' as const,
        full: num(v),
        count,
        share: count / numbers.length,
        weightedShare: null,
        href: answersHref(panelId, r.questionId, { value: v }),
        description: `${num(v)}: ${answers(count)}. List them.`,
      };
    });
  }
  const lo = distinct[0] as number;
  const hi = distinct.at(-1) as number;
  const step = (hi - lo) / BINS;
  const bins = Array.from({ length: BINS }, (_, i) => ({ from: lo + i * step, to: i === BINS - 1 ? hi : lo + (i + 1) * step, count: 0 }));
  for (const n of numbers) (bins[Math.min(BINS - 1, Math.floor((n - lo) / step))] as { count: number }).count++;
  return bins.map((b, i) => {
    const full = i === BINS - 1 ? `${num(b.from)} to ${num(b.to)}` : `${num(b.from)} to under ${num(b.to)}`;
    return { kind: 'range' as const, full, count: b.count, share: b.count / numbers.length, weightedShare: null, href: null, description: `${full}: ${answers(b.count)}.` };
  });
}
