import type { Repos } from '../store/db/repos/index.ts';
import type { AuthContext } from './accounts.ts';
import { invalid, notFound } from '../kernel/errors.ts';

/** An account's privacy settings (issue 25). */
export interface AccountPrivacy {
  /** Simulations, panels and the LLM engine refuse a mind whose consent does not cover the use (domain/consent.ts). */
  requireConsent: boolean;
  /** Transcripts and simulations older than this many days are erased by the retention job; null keeps them. */
  retentionDays: number | null;
}

export const MAX_RETENTION_DAYS = 36_500;

/**
 * Reads and changes an account's privacy settings: `requireConsent` (default off; on for accounts
 * made while REQUIRE_CONSENT=true) and `retentionDays`, which the retention job reads. A change
 * takes effect at once on every process: the consent check reads the setting on each use.
 */
export class PrivacySettingsService {
  private readonly repos: Repos;
  constructor(repos: Repos) {
    this.repos = repos;
  }

  async get(auth: AuthContext): Promise<AccountPrivacy> {
    const row = await this.repos.consent.accountPrivacy(auth.accountId);
    if (!row) throw notFound('The account', 'account_not_found');
    return { requireConsent: Boolean(row.require_consent), retentionDays: row.retention_days };
  }

  /** Changes the settings given; answers them all. */
  async update(auth: AuthContext, changes: { requireConsent?: boolean | undefined; retentionDays?: number | null | undefined }): Promise<AccountPrivacy> {
    const days = changes.retentionDays;
    if (days !== undefined && days !== null && !(Number.isInteger(days) && days >= 1 && days <= MAX_RETENTION_DAYS)) {
      throw invalid('invalid_retention_days', `retentionDays is a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null to keep everything.`, { field: 'retentionDays' });
    }
    const ok = await this.repos.consent.setAccountPrivacy(auth.accountId, {
      ...(changes.requireConsent !== undefined ? { require_consent: changes.requireConsent ? 1 : 0 } : {}),
      ...(days !== undefined ? { retention_days: days } : {}),
    });
    if (!ok) throw notFound('The account', 'account_not_found');
    return this.get(auth);
  }
}
