import { z } from 'zod';
import { CONSENT_METHODS, CONSENT_USES, type ConsentInput as DomainConsentInput } from '../../domain/consent.ts';

/**
 * Schemas of issue 25's consent record (on the Mind, POST /minds, PUT /minds/{mindId}) and of the
 * account's privacy settings (GET and PUT /account/privacy). No import from ../schemas.ts, which
 * imports this file for the Mind.
 */
const Timestamp = z.string().describe('ISO 8601 timestamp in UTC, ending in Z');

/** A date (YYYY-MM-DD, taken as its midnight UTC) or a date-time with a zone, stored in UTC. */
const Instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString())
  .describe('A date (YYYY-MM-DD) or an ISO 8601 date-time with its zone; answered in UTC');

export const ConsentUse = z.enum(CONSENT_USES).describe('simulate: simulations; panels: panels; llm: sending the person\'s words to a language model (mind-reasoner-pro, reflections)');
export const ConsentMethod = z.enum(CONSENT_METHODS);

/** The consent on record as shown on every Mind: `{status: "unknown"}`, or the granted record. */
export const ConsentView = z
  .object({
    status: z.enum(['granted', 'unknown']).describe('unknown: no consent on record. A withdrawn mind is erased and answers 410 CONSENT_WITHDRAWN'),
    subject: z.string().optional().describe("The person's name or a pseudonym"),
    obtainedAt: Timestamp.optional(),
    method: ConsentMethod.optional(),
    scope: z.array(ConsentUse).optional().describe('The uses consented to'),
    expiresAt: Timestamp.nullable().optional().describe('After it the consent counts as none; null: no expiry'),
    evidenceArtifactId: z.uuid().nullable().optional().describe('An uploaded file of this mind recording the consent (the signed form)'),
  })
  .meta({ id: 'Consent' });

const GRANTED_ONLY = ['subject', 'obtainedAt', 'method', 'scope', 'expiresAt', 'evidenceArtifactId'] as const;
const REQUIRED_WHEN_GRANTED: Record<'subject' | 'obtainedAt' | 'method' | 'scope', string> = {
  subject: "required when status is \"granted\": the person's name or a pseudonym",
  obtainedAt: 'required when status is "granted": when the consent was given (YYYY-MM-DD or an ISO 8601 date-time)',
  method: `required when status is "granted": how it was obtained, one of ${CONSENT_METHODS.join(', ')}`,
  scope: `required when status is "granted": the uses consented to, some of ${CONSENT_USES.join(', ')}`,
};

/** What a client sets: granted with its record; unknown (clears it); withdrawn (PUT only: erases the mind). */
export const ConsentInput = z
  .object({
    status: z.enum(['granted', 'withdrawn', 'unknown']).describe('granted: with subject, obtainedAt, method, scope. unknown: clears the record. withdrawn (PUT only, alone): erases the mind and the person\'s data'),
    subject: z.string().trim().min(1).max(200).optional(),
    obtainedAt: Instant.optional(),
    method: ConsentMethod.optional(),
    scope: z.array(ConsentUse).min(1).max(CONSENT_USES.length * 2).optional(),
    expiresAt: Instant.nullable().optional(),
    evidenceArtifactId: z.uuid().nullable().optional().describe('The artifactId of a file uploaded to this mind (GET /minds/{mindId}/signed-url, then PUT): the signed form'),
  })
  .superRefine((c, ctx) => {
    if (c.status === 'granted') {
      for (const [field, message] of Object.entries(REQUIRED_WHEN_GRANTED)) {
        if (c[field as keyof typeof REQUIRED_WHEN_GRANTED] === undefined) ctx.addIssue({ code: 'custom', path: [field], message });
      }
      if (c.obtainedAt && c.expiresAt && c.expiresAt <= c.obtainedAt) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'must be after obtainedAt' });
    } else {
      for (const field of GRANTED_ONLY) {
        if (c[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `only with status "granted" (status "${c.status}" takes no other field)` });
      }
    }
  })
  .transform((c) => c as DomainConsentInput)
  .describe('The consent on record');

export const ConsentWithdrawal = z
  .object({
    success: z.literal(true),
    mindId: z.uuid(),
    consent: z.object({ status: z.literal('withdrawn'), withdrawnAt: Timestamp }),
    erasedSnapshots: z.number().int().describe('Snapshots erased with the mind'),
  })
  .describe('The consent was withdrawn: the mind and the person\'s data are erased; GET /minds/{mindId} answers 410 CONSENT_WITHDRAWN with withdrawnAt')
  .meta({ id: 'ConsentWithdrawal' });

export const AccountPrivacy = z
  .object({
    requireConsent: z.boolean().describe('Simulations, panels and the LLM engine refuse (403 CONSENT_REQUIRED) a mind whose consent does not cover the use'),
    retentionDays: z.number().int().nullable().describe('Transcripts and simulations older than this many days are erased; null keeps them'),
  })
  .meta({ id: 'AccountPrivacy' });

export const AccountPrivacyUpdate = z
  .object({
    requireConsent: z.boolean().optional(),
    retentionDays: z.number().int().min(1).max(36_500).nullable().optional().describe('1–36500 days, or null to keep everything'),
  })
  .refine((b) => b.requireConsent !== undefined || b.retentionDays !== undefined, 'Give requireConsent, retentionDays or both');
