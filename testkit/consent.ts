/**
 * Consent records for tests (issue 25): the person's consent on record, as a client sets it on
 * POST /minds or PUT /minds/{mindId}. The LLM reflections and estimates of a snapshot are made only
 * under a consent covering "llm": tests that expect them create the mind with `FULL_CONSENT`.
 */
export interface GrantedConsent {
  status: 'granted';
  subject: string;
  obtainedAt: string;
  method: 'written' | 'verbal' | 'contract' | 'public-record';
  scope: Array<'simulate' | 'panels' | 'llm'>;
  expiresAt?: string | null;
  evidenceArtifactId?: string | null;
}

/** Consented to every use (simulate, panels, llm), in writing, without expiry. */
export const FULL_CONSENT: GrantedConsent = {
  status: 'granted',
  subject: 'Sam Okafor',
  obtainedAt: '2026-01-05',
  method: 'written',
  scope: ['simulate', 'panels', 'llm'],
};

/** A consent with these uses only. */
export const consentTo = (...scope: GrantedConsent['scope']): GrantedConsent => ({ ...FULL_CONSENT, scope });
