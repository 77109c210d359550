import type { Command } from 'commander';
import type { AccountPrivacy, Consent, ConsentInput } from '@mindsim/sdk';
import { clientFrom } from './config.ts';
import { UsageError, dim, printJson, type OutputOptions } from './terminal.ts';

type Global = () => OutputOptions;

const USES = ['simulate', 'panels', 'llm'] as const;
const METHODS = ['written', 'verbal', 'contract', 'public-record'] as const;
type Use = (typeof USES)[number];
type Method = (typeof METHODS)[number];

/** `--scope simulate,llm` (or repeated): the uses, each checked. */
function scopeOf(values: string[]): Use[] {
  const uses = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const unknown = uses.filter((u) => !(USES as readonly string[]).includes(u));
  if (unknown.length) throw new UsageError(`--scope takes ${USES.join(', ')} (not ${unknown.join(', ')})`);
  if (!uses.length) throw new UsageError(`--scope is required: some of ${USES.join(', ')}`);
  return [...new Set(uses)] as Use[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** One line per field of a consent record. */
export function consentLines(c: Consent): string[] {
  if (c.status !== 'granted') return ['Consent: unknown (none on record)'];
  return [
    `Consent: granted by ${c.subject ?? '?'} on ${c.obtainedAt ?? '?'} (${c.method ?? '?'})`,
    `  scope: ${(c.scope ?? []).join(', ')}`,
    `  expires: ${c.expiresAt ?? 'never'}`,
    ...(c.evidenceArtifactId ? [`  evidence: artifact ${c.evidenceArtifactId}`] : []),
  ];
}

const privacyLines = (p: AccountPrivacy) => [
  `requireConsent: ${p.requireConsent ? 'on' : 'off'}`,
  `retentionDays: ${p.retentionDays ?? 'keep (no limit)'}`,
];

/** `mindsim consent show|grant|clear|withdraw` and `mindsim account privacy`. */
export function consentCommands(program: Command, global: Global): void {
  const consent = program.command('consent').description("the consent on record of the person behind a mind: show, grant, clear, withdraw");

  consent
    .command('show <mindId>')
    .description("print the mind's consent record")
    .action(async (mindId: string) => {
      const mind = await clientFrom().minds.get(mindId);
      if (global().json) return printJson({ mindId: mind.id, consent: mind.consent });
      for (const line of consentLines(mind.consent)) console.log(line);
    });

  consent
    .command('grant <mindId>')
    .description('record the consent the person gave (replaces the record)')
    .requiredOption('--subject <name>', "the person's name or a pseudonym")
    .requiredOption('--obtained <date>', 'when consent was given: YYYY-MM-DD or an ISO 8601 date-time')
    .requiredOption('--method <method>', `how: ${METHODS.join(', ')}`)
    .option('--scope <uses>', `the uses consented to, comma-separated or repeated: ${USES.join(', ')}`, collect, [])
    .option('--expires <date>', 'when the consent expires (then it counts as none)')
    .option('--evidence <artifactId>', 'an uploaded file of this mind recording the consent (mindsim upload … prints its artifactId)')
    .action(async (mindId: string, opts: { subject: string; obtained: string; method: string; scope: string[]; expires?: string; evidence?: string }) => {
      if (!(METHODS as readonly string[]).includes(opts.method)) throw new UsageError(`--method takes ${METHODS.join(', ')}`);
      const record: ConsentInput = {
        status: 'granted',
        subject: opts.subject,
        obtainedAt: opts.obtained,
        method: opts.method as Method,
        scope: scopeOf(opts.scope),
        ...(opts.expires ? { expiresAt: opts.expires } : {}),
        ...(opts.evidence ? { evidenceArtifactId: opts.evidence } : {}),
      };
      const { mind } = await clientFrom().minds.setConsent(mindId, record);
      if (global().json) return printJson({ mindId: mind.id, consent: mind.consent });
      for (const line of consentLines(mind.consent)) console.log(line);
    });

  consent
    .command('clear <mindId>')
    .description('remove the consent record (status unknown)')
    .action(async (mindId: string) => {
      const { mind } = await clientFrom().minds.setConsent(mindId, { status: 'unknown' });
      if (global().json) return printJson({ mindId: mind.id, consent: mind.consent });
      console.log(`The consent record of ${mind.name} is cleared (unknown).`);
    });

  consent
    .command('withdraw <mindId>')
    .description("the person withdrew consent: erase the mind and all their data for good (needs --yes)")
    .option('--yes', 'confirm the erasure: transcripts, memories, simulations and panel answers cannot be recovered')
    .action(async (mindId: string, opts: { yes?: boolean }) => {
      if (!opts.yes) throw new UsageError("withdrawing consent erases the mind and the person's data for good: add --yes to confirm");
      const w = await clientFrom().minds.withdrawConsent(mindId);
      if (global().json) return printJson(w);
      console.log(`Consent withdrawn at ${w.consent.withdrawnAt}: mind ${w.mindId} erased (${w.erasedSnapshots} snapshot${w.erasedSnapshots === 1 ? '' : 's'}).`);
      console.log(dim('Only the record that consent was withdrawn, and when, is kept.'));
    });

  program
    .command('account')
    .description("the account's settings")
    .command('privacy')
    .description('show the privacy settings, or change them with --require-consent and --retention-days')
    .option('--require-consent <on|off>', 'refuse to simulate, panel or send to an LLM a mind whose consent does not cover the use')
    .option('--retention-days <days|keep>', 'erase transcripts and simulations older than this many days (1–36500), or keep them')
    .action(async (opts: { requireConsent?: string; retentionDays?: string }) => {
      const changes: { requireConsent?: boolean; retentionDays?: number | null } = {};
      if (opts.requireConsent !== undefined) {
        if (!['on', 'off', 'true', 'false'].includes(opts.requireConsent)) throw new UsageError('--require-consent takes on or off');
        changes.requireConsent = opts.requireConsent === 'on' || opts.requireConsent === 'true';
      }
      if (opts.retentionDays !== undefined) {
        const days = opts.retentionDays === 'keep' ? null : Number(opts.retentionDays);
        if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 36_500)) throw new UsageError('--retention-days takes a whole number from 1 to 36500, or keep');
        changes.retentionDays = days;
      }
      const client = clientFrom();
      const settings = Object.keys(changes).length ? await client.account.setPrivacy(changes) : await client.account.privacy();
      if (global().json) return printJson(settings);
      for (const line of privacyLines(settings)) console.log(line);
    });
}
