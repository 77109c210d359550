/**
 * Consent on record, per mind (issue 25): who consented, when, how, to which uses and until when,
 * and what a use of the mind needs from it.
 *
 * - A mind's consent is `unknown` until one is given, `granted` with its record, or `withdrawn`:
 *   a withdrawal erases the mind (MindService.withdrawConsent) and leaves only a content-free row in
 *   `consent_withdrawals`, so a withdrawn mind is never read back as a row; it answers 410.
 * - A use (simulate, panels, llm) is covered by a granted consent whose scope has it and that has not
 *   expired by the Runtime's clock; expired consent counts as none.
 * - An account with `requireConsent` refuses every use not covered (403 consent_required), here in
 *   ConsentPolicy, which the services every transport goes through call (SimulationService,
 *   PanelService, PanelRunner). Independently of the setting, the LLM reflections and estimates of
 *   a snapshot are made only under a consent covering `llm` (jobs/process-snapshot.ts).
 */
import type { MindRow } from '../store/db/repos/minds.ts';
import type { ConsentColumns, ConsentWithdrawalRow } from '../store/db/repos/consent.ts';
import type { Repos } from '../store/db/repos/index.ts';
import type { ConsentMethod, ConsentUse } from '../store/db/schema.ts';
import { DomainError, invalid } from '../kernel/errors.ts';
import type { Runtime } from '../kernel/runtime.ts';

export type { ConsentMethod, ConsentStatus, ConsentUse } from '../store/db/schema.ts';

export const CONSENT_USES = ['simulate', 'panels', 'llm'] as const satisfies readonly ConsentUse[];
export const CONSENT_METHODS = ['written', 'verbal', 'contract', 'public-record'] as const satisfies readonly ConsentMethod[];

/** A mind's consent as the API shows it: `{status: "unknown"}`, or the granted record. */
export type Consent =
  | { status: 'unknown' }
  | {
      status: 'granted';
      /** The person's name or a pseudonym. */
      subject: string;
      obtainedAt: string;
      method: ConsentMethod;
      scope: ConsentUse[];
      expiresAt: string | null;
      /** The uploaded file (an artifact of the same mind) that records the consent, e.g. the signed form. */
      evidenceArtifactId: string | null;
    };

/** What a client sets: a granted record, `unknown` (clears it), or `withdrawn` (erases the mind). */
export type ConsentInput =
  | { status: 'unknown' }
  | { status: 'withdrawn' }
  | {
      status: 'granted';
      subject: string;
      obtainedAt: string;
      method: ConsentMethod;
      scope: readonly ConsentUse[];
      expiresAt?: string | null | undefined;
      evidenceArtifactId?: string | null | undefined;
    };

/** A granted consent as a client sets it (the consent of a mind being created or updated). */
export type GrantedConsent = Extract<ConsentInput, { status: 'granted' }>;

/** The columns of a mind without a consent record. */
export const NO_CONSENT: ConsentColumns = {
  consent_status: 'unknown',
  consent_subject: null,
  consent_obtained_at: null,
  consent_method: null,
  consent_scope: null,
  consent_expires_at: null,
  consent_evidence_artifact_id: null,
  consent_withdrawn_at: null,
};

/** The uses in a stored scope (JSON array text), in CONSENT_USES order; unreadable or unknown entries are dropped. */
export function scopeOf(json: string | null): ConsentUse[] {
  if (json === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return CONSENT_USES.filter((u) => parsed.includes(u));
}

/** The consent of a mind's row, as shown. */
export function consentOf(row: MindRow): Consent {
  if (row.consent_status !== 'granted' || !row.consent_subject || !row.consent_obtained_at || !row.consent_method) return { status: 'unknown' };
  return {
    status: 'granted',
    subject: row.consent_subject,
    obtainedAt: row.consent_obtained_at,
    method: row.consent_method,
    scope: scopeOf(row.consent_scope),
    expiresAt: row.consent_expires_at,
    evidenceArtifactId: row.consent_evidence_artifact_id,
  };
}

/** The columns of a granted or cleared consent (a withdrawal is not written here: it erases the mind). */
export function consentColumns(input: GrantedConsent | { status: 'unknown' }): ConsentColumns {
  if (input.status === 'unknown') return NO_CONSENT;
  return {
    consent_status: 'granted',
    consent_subject: input.subject,
    consent_obtained_at: input.obtainedAt,
    consent_method: input.method,
    consent_scope: JSON.stringify(CONSENT_USES.filter((u) => input.scope.includes(u))),
    consent_expires_at: input.expiresAt ?? null,
    consent_evidence_artifact_id: input.evidenceArtifactId ?? null,
    consent_withdrawn_at: null,
  };
}

/** Why a use is not covered: no consent on record, an expired one, or a scope without it. */
export type ConsentGap = 'unknown' | 'expired' | 'scope';

/** Whether a granted consent's expiry has passed at `now` (expired consent counts as none). */
export const expiredAt = (expiresAt: string | null | undefined, now: Date): boolean => typeof expiresAt === 'string' && Date.parse(expiresAt) <= now.getTime();

/** The uses among `uses` that the mind's consent does not cover at `now`, and why (null when all are covered). */
export function missingUses(row: MindRow, uses: readonly ConsentUse[], now: Date): { missing: ConsentUse[]; gap: ConsentGap } | null {
  const consent = consentOf(row);
  if (consent.status !== 'granted') return uses.length ? { missing: [...uses], gap: 'unknown' } : null;
  if (expiredAt(consent.expiresAt, now)) return uses.length ? { missing: [...uses], gap: 'expired' } : null;
  const missing = uses.filter((u) => !consent.scope.includes(u));
  return missing.length ? { missing, gap: 'scope' } : null;
}

/** Whether the mind's consent covers the use now (e.g. `llm` for a snapshot's reflections), whatever the account's setting. */
export const covers = (row: MindRow, use: ConsentUse, now: Date): boolean => missingUses(row, [use], now) === null;

const quoted = (uses: readonly string[]) => uses.map((u) => `"${u}"`).join(', ');

const GAP_WORDS: Record<ConsentGap, string> = {
  unknown: 'has no consent on record',
  expired: 'has a consent that expired',
  scope: 'has a consent whose scope does not include',
};

/** 403 consent_required: the account requires consent and the mind's does not cover these uses. */
export function consentRequired(row: MindRow, missing: readonly ConsentUse[], gap: ConsentGap): DomainError {
  const what = gap === 'scope' ? `${GAP_WORDS.scope} ${quoted(missing)}` : GAP_WORDS[gap];
  const hint = missing.includes('llm') && gap === 'scope' ? ' (or ask for mind-reasoner-standard, which uses no language model)' : '';
  return new DomainError(
    'forbidden',
    'consent_required',
    `This account requires consent on record: mind "${row.name}" ${what}, needed for ${quoted(missing)}. ` +
      `Record the person's consent with PUT /minds/${row.id} {"consent": {...}}${hint}.`,
    { mindId: row.id, missing: [...missing], consent: gap === 'expired' ? 'expired' : consentOf(row).status, ...(row.consent_expires_at && gap === 'expired' ? { expiredAt: row.consent_expires_at } : {}) },
  );
}

/** 410 consent_withdrawn: the mind's consent was withdrawn and its data erased. */
export const consentWithdrawn = (w: ConsentWithdrawalRow): DomainError =>
  new DomainError('gone', 'consent_withdrawn', `Consent for this mind was withdrawn at ${w.withdrawn_at}: the mind and the person's data were erased.`, {
    mindId: w.mind_id,
    withdrawnAt: w.withdrawn_at,
  });

/** 400 consent_evidence_not_found: evidenceArtifactId names no artifact of this mind. */
export const evidenceNotFound = (artifactId: string, mindId: string | null): DomainError =>
  invalid(
    'consent_evidence_not_found',
    mindId === null
      ? 'consent.evidenceArtifactId must name a file uploaded to this mind, and a new mind has none: create the mind, upload the signed form (GET /minds/{mindId}/signed-url, then PUT the file), then set the consent with PUT /minds/{mindId}.'
      : `consent.evidenceArtifactId ${artifactId} is not a file uploaded to this mind: upload the form with GET /minds/${mindId}/signed-url and PUT, then give the artifactId answered.`,
    { field: 'consent.evidenceArtifactId', artifactId },
  );

/** Whether the model a request resolved to is answered by a language model (mind-reasoner-pro resolves to itself only with an LLM configured: engines/registry.ts). */
export const usesLanguageModel = (model: string): boolean => model === 'mind-reasoner-pro';

/** A snapshot's `estimates_error` when no LLM estimate was made because the consent did not cover "llm". */
export const LLM_NOT_CONSENTED = 'llm_not_consented';

/** The uses a simulation needs: `simulate`, and `llm` when a language model answers. */
export const simulationUses = (usesLlm: boolean): ConsentUse[] => (usesLlm ? ['simulate', 'llm'] : ['simulate']);
/** The uses a panel needs: `panels`, and `llm` when a language model answers. */
export const panelUses = (usesLlm: boolean): ConsentUse[] => (usesLlm ? ['panels', 'llm'] : ['panels']);

/**
 * Whether the account requires consent, and the refusal of a use its minds' consent does not
 * cover. The setting is read on every check (one primary-key read): turning it on takes effect at
 * once on every process.
 */
export class ConsentPolicy {
  private readonly repos: Repos;
  private readonly rt: Runtime;
  constructor(repos: Repos, rt: Runtime) {
    this.repos = repos;
    this.rt = rt;
  }

  async requiresConsent(accountId: string): Promise<boolean> {
    return Boolean((await this.repos.consent.accountPrivacy(accountId))?.require_consent);
  }

  /** Refuses (403 consent_required) when the account requires consent and the mind's does not cover every use. */
  async check(accountId: string, mind: MindRow, uses: readonly ConsentUse[]): Promise<void> {
    const gap = missingUses(mind, uses, this.rt.now());
    if (gap && (await this.requiresConsent(accountId))) throw consentRequired(mind, gap.missing, gap.gap);
  }

  /**
   * The same for many minds at once (a panel): refuses naming the first mind not covered, with every
   * such mind in `details.minds`, and every mind the use would have touched in `mindIds` (the access log's rows).
   */
  async checkAll(accountId: string, minds: readonly MindRow[], uses: readonly ConsentUse[]): Promise<void> {
    const now = this.rt.now();
    const refused = minds.flatMap((m) => {
      const gap = missingUses(m, uses, now);
      return gap ? [{ mind: m, ...gap }] : [];
    });
    const [first] = refused;
    if (!first || !(await this.requiresConsent(accountId))) return;
    const err = consentRequired(first.mind, first.missing, first.gap);
    throw new DomainError(err.kind, err.code, refused.length === 1 ? err.message : `${err.message} ${refused.length - 1} other selected mind(s) are not covered either: see details.minds.`, {
      ...err.details,
      minds: refused.map((r) => ({ mindId: r.mind.id, name: r.mind.name, missing: r.missing, consent: r.gap === 'expired' ? 'expired' : consentOf(r.mind).status })),
    }, minds.map((m) => m.id));
  }
}
