import type { Command } from 'commander';
import type { Correction, ReviewLink } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { bold, dim, printJson, UsageError, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`Not a positive whole number: ${v}`);
  return n;
};

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

function show(c: Correction): string {
  return [`${bold(c.id)}  ${dim(`${when(c.createdAt)} · by ${c.createdBy}`)}`, `  Asked:     ${c.scenario}`, `  They say:  ${c.answer}`, ...(c.note ? [`  Note:      ${c.note}`] : [])].join('\n');
}

const linkRow = (l: ReviewLink) => `${l.id}  ${l.status.padEnd(7)}  made ${when(l.createdAt)}  expires ${when(l.expiresAt)}`;

/**
 * `mindsim correct <simulationId> "…"`: what the person would really say to a simulation's latest
 * question (the mind answers from it from then on); `mindsim corrections list|add|delete` for a
 * mind's corrections, and `mindsim review-links create|list|revoke` for the person's review links.
 */
export function correctionsCommands(program: Command, global: Global): void {
  program
    .command('correct <simulationId> <answer>')
    .description("correct a simulation's latest answer: what the person would really say (the mind answers from it from then on)")
    .option('--note <text>', 'why, or who said so')
    .action(async (simulationId: string, answer: string, opts: { note?: string }) => {
      const correction = await clientFrom().minds.corrections.fromSimulation(simulationId, { answer, ...(opts.note ? { note: opts.note } : {}) });
      if (global().json) return printJson({ correction });
      console.log(`Corrected: asked “${correction.scenario}”, the mind now answers from “${correction.answer}”.`);
      console.log(dim(`correction ${correction.id} of mind ${correction.mindId}`));
    });

  const corrections = program.command('corrections').description("a mind's corrections: list, add, delete");

  corrections
    .command('list <mindId>')
    .alias('ls')
    .description("the mind's corrections, newest first")
    .option('--limit <n>', 'at most this many', positive)
    .action(async (mindId: string, opts: { limit?: number }) => {
      const pages = clientFrom().minds.corrections.list(mindId, { limit: opts.limit ?? 50 });
      const first = await pages.first();
      if (global().json) return printJson(first);
      if (!first.corrections.length) return console.log(dim('No corrections yet: mindsim correct <simulationId> "what they would really say"'));
      console.log(first.corrections.map(show).join('\n\n'));
      if (first.count > first.corrections.length) console.log(dim(`\nThe latest ${first.corrections.length} of ${first.count}: --json for the first page, or the SDK for every page.`));
    });

  corrections
    .command('add <mindId> <scenario> <answer>')
    .description('correct the mind on a scenario of your own: what the person would really say to it')
    .option('--note <text>', 'why, or who said so')
    .action(async (mindId: string, scenario: string, answer: string, opts: { note?: string }) => {
      const correction = await clientFrom().minds.corrections.create(mindId, { scenario, answer, ...(opts.note ? { note: opts.note } : {}) });
      if (global().json) return printJson({ correction });
      console.log(`Added correction ${correction.id}: the mind answers “${scenario}” from it from now on.`);
    });

  corrections
    .command('delete <mindId> <correctionId>')
    .alias('rm')
    .description('delete a correction: the mind answers from its transcript again')
    .action(async (mindId: string, correctionId: string) => {
      const deleted = await clientFrom().minds.corrections.delete(mindId, correctionId);
      if (global().json) return printJson(deleted);
      console.log(`Deleted correction ${correctionId}`);
    });

  const links = program.command('review-links').description('links for the person behind a mind to review and correct its answers, without an account');

  links
    .command('create <mindId>')
    .description('make a review link (its URL is shown only now)')
    .option('--days <n>', 'how many days it opens (1–90, default 14)', positive)
    .action(async (mindId: string, opts: { days?: number }) => {
      const made = await clientFrom().minds.reviewLinks.create(mindId, opts.days === undefined ? {} : { expiresInDays: opts.days });
      if (global().json) return printJson(made);
      console.log(made.url);
      console.log(dim(`Give this link to the person; it opens until ${when(made.reviewLink.expiresAt)} UTC and is shown only now (link ${made.reviewLink.id}).`));
    });

  links
    .command('list <mindId>')
    .alias('ls')
    .description("the mind's review links, newest first")
    .action(async (mindId: string) => {
      const list = await clientFrom().minds.reviewLinks.list(mindId);
      if (global().json) return printJson({ reviewLinks: list });
      if (!list.length) return console.log(dim('No review links yet: mindsim review-links create <mindId>'));
      for (const l of list) console.log(linkRow(l));
    });

  links
    .command('revoke <mindId> <linkId>')
    .description('the link stops opening at once')
    .action(async (mindId: string, linkId: string) => {
      const reviewLink = await clientFrom().minds.reviewLinks.revoke(mindId, linkId);
      if (global().json) return printJson({ reviewLink });
      console.log(`Revoked review link ${linkId}`);
    });
}
