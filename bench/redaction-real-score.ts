/**
 * Scores of bench/redaction-real.ts from hand judgements: precision and recall per kind, the words
 * replaced in passages without personal data (readability), and the share of values planted in
 * those passages that is caught (bench/redaction-real-planted.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { REDACTION_KINDS, type RedactionKind } from '../src/privacy/kinds.ts';
import { covered, type Passage } from './redaction-real-passages.ts';
import { plantedShare } from './redaction-real-planted.ts';

export interface Detection {
  id: string;
  passage: string;
  kind: RedactionKind;
  value: string;
  /** [start, end) in the passage's text. */
  start: number;
  end: number;
}

type Label = 'tp' | 'fp' | 'public';
interface Judgements {
  detections: Record<string, Label>;
  recall: Record<string, Array<{ kind: RedactionKind; text: string; nth?: number; public?: boolean }>>;
  structured?: Record<string, Label>;
}
export type SavedPassage = Passage & { text: string; speakers?: string[] };

/**
 * The shows holding 304 of the report set's (seed 41's) 400 passages: the development set never
 * draws from them, so the report set's passages from these shows are from shows it never saw.
 */
export const REPORT_SHOWS = ['gotime', 'jsparty', 'podcast', 'practicalai'];

const f = (n: number, d: number) => (d === 0 ? '—' : (n / d).toFixed(3));

/** The words of `text` (runs without spaces) any of whose characters lies in a span. */
export function wordsReplaced(text: string, spans: ReadonlyArray<{ start: number; end: number }>): { words: number; replaced: number } {
  let words = 0;
  let replaced = 0;
  for (const m of text.matchAll(/\S+/g)) {
    words++;
    if (spans.some((s) => s.start < m.index + m[0].length && m.index < s.end)) replaced++;
  }
  return { words, replaced };
}

export function score(file: string, out: string): void {
  const saved = JSON.parse(fs.readFileSync(path.join(out, 'detections.json'), 'utf8')) as { selection: { seed: number }; passages: SavedPassage[]; detections: Detection[] };
  const judged = JSON.parse(fs.readFileSync(file, 'utf8')) as Judgements;
  const unjudged = saved.detections.filter((d) => !(d.id in judged.detections));
  if (unjudged.length > 0) throw new Error(`${unjudged.length} detections not judged, first ${unjudged[0]?.id}`);
  const passageOf = new Map(saved.passages.map((p) => [p.id, p]));
  const fromReportShows = (pid: string) => REPORT_SHOWS.includes(passageOf.get(pid)?.file.split(path.sep)[0] ?? '');
  const row = (k: RedactionKind, keep: (d: Detection) => boolean = () => true) => {
    const ds = saved.detections.filter((d) => d.kind === k && keep(d));
    const tp = ds.filter((d) => judged.detections[d.id] === 'tp').length;
    const pub = ds.filter((d) => judged.detections[d.id] === 'public').length;
    return { n: ds.length, tp, pub, fp: ds.length - tp - pub };
  };
  console.log(`${JSON.stringify(saved.selection)}: ${saved.passages.length} passages, ${saved.detections.length} detections\n`);
  console.log('| kind | detected | true | false (of which public figures) | precision | precision, public figures counted right |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const k of REDACTION_KINDS) {
    const r = row(k);
    if (r.n === 0) continue;
    console.log(`| ${k} | ${r.n} | ${r.tp} | ${r.fp + r.pub}${r.pub ? ` (${r.pub})` : ''} | ${f(r.tp, r.n)} | ${f(r.tp + r.pub, r.n)} |`);
  }
  const none = REDACTION_KINDS.filter((k) => row(k).n === 0);
  if (none.length > 0) console.log(`| ${none.join(', ')} | 0 | — | — | — | — |`);
  for (const set of ['targeted', 'uniform'] as const) {
    const parts = REDACTION_KINDS.map((k) => [k, row(k, (d) => passageOf.get(d.passage)?.set === set)] as const).filter(([, r]) => r.n > 0);
    console.log(`\n${set}: ${parts.map(([k, r]) => `${k} ${r.tp}/${r.n}`).join(', ') || 'no detection'}`);
  }
  const inShows = row('person', (d) => fromReportShows(d.passage));
  console.log(`person, passages of ${REPORT_SHOWS.join(', ')}: ${inShows.tp}/${inShows.n} (${f(inShows.tp, inShows.n)}); of the other shows: ${row('person').tp - inShows.tp}/${row('person').n - inShows.n}`);

  // Recall: a public figure's name is no third party's: listed apart ("public": true), not counted.
  const digits = (set: Passage['set']) => saved.passages.filter((p) => p.set === set && /\d/.test(p.text)).length;
  console.log(`\npassages with a digit: ${digits('targeted')} of the targeted, ${digits('uniform')} of the uniform`);
  const totals = new Map<RedactionKind, { total: number; found: number }>();
  for (const set of ['uniform', 'targeted'] as const) {
    const annotated = Object.keys(judged.recall).filter((pid) => passageOf.get(pid)?.set === set).length;
    console.log(`\n${set} passages (every one read; ${annotated} hold a value to replace or a public figure's name)`);
    console.log('| kind | values | found | recall |');
    console.log('|---|---:|---:|---:|');
    const misses: string[] = [];
    const publicFound: string[] = [];
    for (const k of REDACTION_KINDS) {
      let total = 0;
      let found = 0;
      for (const [pid, values] of Object.entries(judged.recall)) {
        const p = passageOf.get(pid);
        if (!p) throw new Error(`no passage ${pid}`);
        if (p.set !== set) continue;
        for (const v of values) {
          if (v.kind !== k) continue;
          let at = -1;
          for (let i = 0; i < (v.nth ?? 1); i++) at = p.text.indexOf(v.text, at + 1);
          if (at < 0) throw new Error(`${pid}: «${v.text}» not in the passage`);
          const hit = covered(p.text, at, v.text.length, saved.detections.filter((d) => d.passage === pid && d.kind === k));
          if (v.public) {
            publicFound.push(`${v.text} ${hit ? 'replaced' : 'kept'}`);
            continue;
          }
          total++;
          if (hit) found++;
          else misses.push(`${pid} ${k} «${v.text}»`);
        }
      }
      const t = totals.get(k) ?? { total: 0, found: 0 };
      totals.set(k, { total: t.total + total, found: t.found + found });
      if (total > 0) console.log(`| ${k} | ${total} | ${found} | ${total < 10 ? `${f(found, total)} (too few to measure)` : f(found, total)} |`);
    }
    console.log(`missed: ${misses.join('; ') || 'none'}`);
    console.log(`public figures (not counted): ${publicFound.join('; ') || 'none'}`);
  }
  console.log(`\nall 400 passages: ${[...totals].filter(([, t]) => t.total > 0).map(([k, t]) => `${k} ${t.found}/${t.total} (${f(t.found, t.total)})`).join(', ') || 'no value'}`);

  // Readability: passages holding no personal data (no value to replace; a public figure's name is none).
  const clean = saved.passages.filter((p) => !(judged.recall[p.id] ?? []).some((v) => !v.public));
  console.log(`\nreadability: passages without personal data (${clean.length} of ${saved.passages.length})`);
  console.log('| passages | words | words replaced | share |');
  console.log('|---|---:|---:|---:|');
  for (const set of ['uniform', 'targeted', undefined] as const) {
    let words = 0;
    let replaced = 0;
    for (const p of clean.filter((x) => !set || x.set === set)) {
      const w = wordsReplaced(p.text, saved.detections.filter((d) => d.passage === p.id));
      words += w.words;
      replaced += w.replaced;
    }
    console.log(`| ${set ?? 'all'} | ${words} | ${replaced} | ${words ? `${((100 * replaced) / words).toFixed(2)}%` : '—'} |`);
  }
  plantedShare(clean, saved.selection.seed);
}

/** Precision of the structured detections judged (`"structured": { "<id>": "tp" | "fp" | "public" }` in the judgements). */
export function scoreStructured(file: string, out: string): void {
  const saved = JSON.parse(fs.readFileSync(path.join(out, 'structured.json'), 'utf8')) as { found: Array<{ id: string; kind: RedactionKind }>; sampled: string[] };
  const judged = (JSON.parse(fs.readFileSync(file, 'utf8')) as Judgements).structured ?? {};
  console.log('\nstructured kinds over every turn of the selected shows (URLs: a seeded sample)');
  const table = (title: string, keep: (id: string) => boolean) => {
    console.log(`\n${title}\n| kind | detected | judged | true | false (of which public figures) | precision |`);
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const k of REDACTION_KINDS.filter((k) => k !== 'person')) {
      const all = saved.found.filter((d) => d.kind === k && keep(d.id));
      const toJudge = k === 'url' ? all.filter((d) => saved.sampled.includes(d.id)) : all;
      const missing = toJudge.filter((d) => !(d.id in judged));
      if (missing.length > 0) throw new Error(`${missing.length} ${k} detections not judged, first ${missing[0]?.id}`);
      const tp = toJudge.filter((d) => judged[d.id] === 'tp').length;
      const pub = toJudge.filter((d) => judged[d.id] === 'public').length;
      console.log(`| ${k} | ${all.length} | ${toJudge.length} | ${tp} | ${toJudge.length - tp}${pub ? ` (${pub})` : ''} | ${toJudge.length ? (tp / toJudge.length).toFixed(3) : '—'} |`);
    }
  };
  table('all selected shows', () => true);
  const show = (id: string) => id.split(path.sep)[0] ?? '';
  if (saved.found.some((d) => REPORT_SHOWS.includes(show(d.id))) && saved.found.some((d) => !REPORT_SHOWS.includes(show(d.id)))) {
    table(`only ${REPORT_SHOWS.join(', ')} (shows the development set never drew from)`, (id) => REPORT_SHOWS.includes(show(id)));
  }
}
