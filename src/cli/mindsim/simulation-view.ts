import type { Evidence, Simulation } from '@mindsim/sdk';
import { bold, dim } from './terminal.ts';

/** `hh:mm:ss` (or `mm:ss` under an hour) of a time in seconds. */
export function timestamp(seconds: number): string {
  const s = Math.floor(seconds);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${String(hh).padStart(2, '0')}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Greedy word wrap to `width` columns, every line after the first indented by `indent` spaces. */
export function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width - indent) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

function where(e: Evidence): string {
  const parts: string[] = [];
  if (e.start !== undefined) parts.push(e.end !== undefined ? `${timestamp(e.start)}–${timestamp(e.end)}` : timestamp(e.start));
  if (e.page !== undefined) parts.push(`p. ${e.page}`);
  return parts.length ? `[${parts.join(', ')}]` : '';
}

/** A simulation for a terminal: the answer, the four facets, the confidence and the quoted evidence. */
export function renderSimulation(sim: Simulation, width = process.stdout.columns || 100): string {
  const w = Math.max(40, Math.min(width, 120));
  const label = (name: string) => bold(name.padEnd(11));
  const out = [
    `${bold('Answer')}     ${wrap(sim.message, w, 11)}`,
    '',
    `${label('Thinking')}${wrap(sim.analysis.thinking, w, 11)}`,
    `${label('Feeling')}${wrap(sim.analysis.feeling, w, 11)}`,
    `${label('Saying')}${wrap(sim.analysis.saying, w, 11)}`,
    `${label('Acting')}${wrap(sim.analysis.acting, w, 11)}`,
    `${label('Confidence')}${Math.round(sim.confidence * 100)}% ${dim(`(${sim.model})`)}`,
  ];
  if (sim.evidence.length) {
    out.push('', bold('Evidence'));
    sim.evidence.forEach((e, i) => {
      const head = [`${i + 1}.`, where(e), e.speaker ?? ''].filter(Boolean).join(' ');
      out.push(`  ${head}`, `     “${wrap(e.text, w, 6)}”`);
    });
  } else out.push('', dim('No evidence: nothing in the transcripts is close to this scenario.'));
  return out.join('\n');
}
