/** Panels for a terminal: a list row, the panel with its progress, and the results per question. */
import type { Panel, PanelQuestionResult } from '@mindsim/sdk';
import { bold, dim } from './terminal.ts';

const pct = (share: number) => `${Math.round(share * 100)}%`.padStart(4);
const num = (v: number | null) => (v === null ? '—' : String(Math.round(v * 100) / 100));
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function panelRow(p: Panel): string {
  return `${p.id}  ${p.createdAt.slice(0, 16).replace('T', ' ')}  ${p.status.padEnd(9)}  ${`${p.done}/${p.total}`.padStart(9)}  ${p.name}`;
}

/** `2 answered, 1 no_evidence`: how many minds answered, and how many had nothing to say on it. */
const counts = (r: PanelQuestionResult) => `${r.answered} answered, ${r.noEvidence} no_evidence`;

/** One question's result: its header, then one line per option (or point), or the figures of a number. */
export function renderResult(r: PanelQuestionResult, stream: NodeJS.WriteStream = process.stdout): string[] {
  const lines = [`${bold(r.questionId, stream)} ${dim(`(${r.type})`, stream)} ${r.text}`, `  ${counts(r)}`];
  if (r.distribution) {
    const labels = r.distribution.map((d) => (d.value !== undefined && String(d.value) !== d.option ? `${d.value} ${d.option}` : d.option).slice(0, 40));
    const width = Math.max(0, ...labels.map((l) => l.length));
    r.distribution.forEach((d, i) => lines.push(`  ${(labels[i] ?? '').padEnd(width)}  ${String(d.count).padStart(4)}  ${pct(d.share)}`));
  }
  if (r.type === 'likert' || r.type === 'number') lines.push(`  mean ${num(r.mean)}, median ${num(r.median)}, min ${num(r.min)}, max ${num(r.max)}`);
  return lines;
}

/** The results of every question (and of every tag, when the panel was chosen by tags), blank lines between. */
export function renderResults(p: Panel, stream: NodeJS.WriteStream = process.stdout): string {
  const blocks = (p.results ?? []).map((r) => renderResult(r, stream).join('\n'));
  for (const s of p.segments ?? []) {
    // A tag every mind carries has the panel's own results: not printed twice.
    if (s.minds === p.minds) {
      blocks.push(`${bold(`Tag ${s.tag}`, stream)}: every mind carries it (the results above)`);
      continue;
    }
    blocks.push(bold(`Tag ${s.tag} (${plural(s.minds, 'mind')})`, stream));
    for (const r of s.questions) blocks.push(renderResult(r, stream).join('\n'));
  }
  return blocks.join('\n\n');
}

/** The panel's header: status, progress, minds, model, what was left out, the error. */
export function renderPanelHeader(p: Panel, stream: NodeJS.WriteStream = process.stdout): string {
  const lines = [
    `${bold(`Panel ${p.id}`, stream)}: ${p.status}`,
    `  name      ${p.name}`,
    `  progress  ${p.done}/${p.total} answers, ${p.mindsDone}/${p.minds} minds done${p.mindsFailed ? `, ${p.mindsFailed} failed` : ''}`,
    `  questions ${p.questions.length}`,
    `  model     ${p.model}`,
    `  created   ${p.createdAt}${p.finishedAt ? `, ended ${p.finishedAt}` : ''}`,
  ];
  if (p.selection.tags?.length) lines.push(`  tags      ${p.selection.tags.join(', ')}`);
  for (const s of p.skippedMinds) lines.push(`  skipped   ${s.name} (${s.mindId}): no completed snapshot yet`);
  if (p.error) lines.push(`  error     ${p.error.code}: ${p.error.message}`);
  return lines.join('\n');
}

export function renderPanel(p: Panel, stream: NodeJS.WriteStream = process.stdout): string {
  const results = renderResults(p, stream);
  return results ? `${renderPanelHeader(p, stream)}\n\n${results}` : renderPanelHeader(p, stream);
}

/** What `panel run` says on stderr once the panel is queued. */
export function createdLine(p: Panel): string {
  const q = p.questions.length;
  return `Panel ${p.id} "${p.name}": ${plural(p.minds, 'mind')} × ${plural(q, 'question')} = ${plural(p.total, 'answer')} (${p.model})`;
}
