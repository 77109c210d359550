import type { Command } from 'commander';
import type { SnapshotDetails, SnapshotStatus } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { dim, printJson, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

const short = (id: string | null) => (id ? id.slice(0, 8) : 'unlinked');

function row(s: SnapshotStatus): string {
  const why = s.error ? `  ${s.error.code}` : '';
  return `${s.id}  ${s.mindsetDate}  ${s.status.padEnd(10)}  twin ${short(s.digitalTwinId)}${why}`;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

function renderDetails(d: SnapshotDetails): string {
  const lines = [
    `Snapshot ${d.id}: ${d.status}`,
    `  conversation  ${d.mindsetDate}`,
    `  created       ${d.createdAt}`,
    `  updated       ${d.updatedAt}`,
    `  twin          ${d.digitalTwinId ?? 'unlinked (no simulation uses it)'}`,
  ];
  if (d.error) lines.push(`  error         ${d.error.code}: ${d.error.message}`);
  if (d.keyTopicCount !== null) lines.push(`  found         ${d.keyTopicCount} topics, ${d.psychometricCount} psychometrics, ${d.findingCount} findings`);
  for (const m of d.psychometrics?.linguisticMarkers ?? []) lines.push(`  ${m.label.padEnd(30)} ${m.value ?? '—'}  (${m.words} words)`);
  for (const b of d.psychometrics?.bigFive ?? []) lines.push(`  ${`${b.trait} (LLM estimate)`.padEnd(30)} ${b.score}`);
  if (d.transcripts) {
    lines.push('', 'Transcript:');
    for (const t of d.transcripts) {
      const at = t.start !== undefined ? `[${clock(t.start)}] ` : t.page !== undefined ? `[p. ${t.page}] ` : '';
      lines.push(`${at}${t.isPerson ? '* ' : ''}${t.speaker ?? '(no speaker)'}: ${t.text}`);
    }
    if (d.transcriptTruncated) lines.push(dim('(the rest of the transcript was not kept)'));
  }
  return lines.join('\n');
}

/** `mindsim snapshots ls|show|rm`. */
export function snapshotsCommands(program: Command, global: Global): void {
  const snapshots = program.command('snapshots').description("list, show and delete a mind's snapshots");

  snapshots
    .command('ls <mindId>')
    .alias('list')
    .description("the mind's snapshots, newest first (every page): id, conversation date, status, twin")
    .action(async (mindId: string) => {
      const client = clientFrom();
      const all = await client.snapshots.list(mindId, { limit: 200 }).all();
      if (global().json) return printJson({ snapshots: all, count: all.length });
      if (!all.length) return console.log(dim(`No snapshots yet: mindsim upload ${mindId} <file>`));
      for (const s of all) console.log(row(s));
    });

  snapshots
    .command('show <mindId> <snapshotId>')
    .description("a snapshot's details: dates, twin, what its analysis found, its psychometrics")
    .option('--transcript', 'also print the parsed transcript turns (the person\'s marked *)')
    .action(async (mindId: string, snapshotId: string, opts: { transcript?: boolean }) => {
      const d = await clientFrom().snapshots.get(mindId, snapshotId, { includeTranscript: Boolean(opts.transcript) });
      if (global().json) return printJson(d);
      console.log(renderDetails(d));
    });

  snapshots
    .command('rm <mindId> <snapshotId>')
    .alias('delete')
    .description('delete a snapshot with what the mind learned from it (and its file)')
    .action(async (mindId: string, snapshotId: string) => {
      const r = await clientFrom().snapshots.delete(mindId, snapshotId);
      if (global().json) return printJson(r);
      console.log(`Deleted snapshot ${r.snapshotId}`);
    });
}
