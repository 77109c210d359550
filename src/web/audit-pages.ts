import type { AuthContext } from '../domain/accounts.ts';
import type { FastifyRequest } from 'fastify';
import { noMind, param, paramMind, pick, str, type AuditCall, type AuditSpec } from '../http/plugins/audit.ts';

/**
 * The dashboard's access log, page by page ("METHOD /path" as Fastify registers it): every page
 * and form is either audited here or in PAGE_NOT_CONTENT with why it shows nothing of a person.
 * test/inproc/audit.routes.test.ts checks both against Fastify's route list. The actor is
 * `user:<account id>`, the session's account.
 */

/** The id at the end of a form's redirect (`/minds/<id>`, `/panels/<id>`). */
const redirectedTo = (prefix: string) => (c: AuditCall) => {
  const m = new RegExp(`^/${prefix}/([0-9a-f-]{36})$`).exec(c.location ?? '');
  return m?.[1];
};
const createdMind = (c: AuditCall) => [redirectedTo('minds')(c)].filter((x): x is string => x !== undefined);
const panelMinds = (c: AuditCall) => {
  const id = c.params.panelId ?? redirectedTo('panels')(c);
  return id ? c.accessLog.mindsOfPanel(c.auth, id) : [];
};
const answerMinds = (c: AuditCall) => {
  const mindId = str(c.query.mindId);
  return mindId ? [mindId] : panelMinds(c);
};

/** A viewer watching a running panel is recorded once a minute, not at each of its polls (AuditSpec.coalesceMs). */
export const LIVE_COALESCE_MS = 60_000;

export const PAGE_AUDITED: Readonly<Record<string, AuditSpec>> = {
  'GET /minds': { action: 'minds.list', minds: noMind },
  'POST /minds': { action: 'mind.create', minds: createdMind },
  'GET /minds/:mindId': { action: 'mind.read', minds: paramMind },
  'POST /minds/:mindId/rename': { action: 'mind.update', minds: paramMind },
  'GET /minds/:mindId/delete': { action: 'mind.read', minds: paramMind },
  'POST /minds/:mindId/delete': { action: 'mind.delete', minds: paramMind },
  'POST /minds/:mindId/consent': { action: 'consent.change', minds: paramMind },
  'POST /minds/:mindId/redaction': { action: 'mind.update', minds: paramMind },
  'POST /minds/:mindId/tags': { action: 'mind.update', minds: paramMind },
  'GET /minds/:mindId/consent/withdraw': { action: 'mind.read', minds: paramMind },
  'POST /minds/:mindId/consent/withdraw': { action: 'consent.change', minds: paramMind },
  'GET /minds/:mindId/profile': { action: 'profile.read', minds: paramMind },
  'GET /minds/:mindId/export': { action: 'mind.export', minds: paramMind },
  'POST /minds/:mindId/uploads': { action: 'upload.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'artifactId')) },
  'POST /minds/:mindId/snapshots': { action: 'snapshot.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'mindAssessmentId')) },
  'POST /minds/:mindId/snapshots/:snapshotId/delete': { action: 'snapshot.delete', minds: paramMind, resource: param('snapshotId') },
  'POST /minds/:mindId/simulate': { action: 'simulate', minds: paramMind, resource: (c) => str(pick(c.body, 'conversationId')) || undefined },
  'GET /minds/:mindId/conversations/:simulationId': { action: 'simulation.read', minds: paramMind, resource: param('simulationId') },
  'POST /minds/:mindId/corrections': { action: 'correction.create', minds: paramMind, resource: (c) => str(pick(c.body, 'simulationId')) || undefined },
  'POST /minds/:mindId/corrections/:correctionId/delete': { action: 'correction.delete', minds: paramMind, resource: param('correctionId') },
  'POST /minds/:mindId/review-links': { action: 'review_link.create', minds: paramMind },
  'POST /minds/:mindId/review-links/:linkId/revoke': { action: 'review_link.revoke', minds: paramMind, resource: param('linkId') },
  'GET /panels/new': { action: 'minds.list', minds: noMind },
  'POST /panels': { action: 'panel.create', minds: panelMinds, resource: (c) => redirectedTo('panels')(c) },
  'GET /panels/:panelId': { action: 'panel.read', minds: panelMinds, resource: param('panelId') },
  // The page's live part shows every result: polled every second while the panel runs, one row a minute.
  'GET /panels/:panelId/live': { action: 'panel.read', minds: panelMinds, resource: param('panelId'), coalesceMs: LIVE_COALESCE_MS },
  'GET /panels/:panelId/answers': { action: 'panel.answers', minds: answerMinds, resource: param('panelId') },
  'POST /panels/:panelId/delete': { action: 'panel.delete', minds: panelMinds, resource: param('panelId'), before: true },
};

export const PAGE_NOT_CONTENT: Readonly<Record<string, string>> = {
  'GET /': 'a redirect',
  'GET /signup': 'the sign-up form',
  'POST /signup': 'creates an account',
  'GET /login': 'the log-in form',
  'POST /login': 'starts a session',
  'POST /logout': 'ends a session',
  'GET /keys': "the account's API keys (names and prefixes)",
  'POST /keys': 'a new API key',
  'POST /keys/:keyId/revoke': 'revokes an API key',
  'GET /minds/:mindId/snapshots': 'statuses, dates and counts of the uploads (polled while one is processed), no words',
  'GET /minds/:mindId/audit': 'the access log itself: ids, actions and times, no content',
  'GET /panels': "the account's panels: names and progress",
  'POST /panels/:panelId/cancel': 'stops a panel; shows no answer',
  'GET /panels/:panelId/delete': "the confirmation of a panel's deletion: its name",
  'GET /integrations/webhooks': 'webhook credentials',
  'POST /integrations/webhooks/credentials': 'new webhook credentials',
  'GET /integrations/webhooks/events': 'events the account received from elsewhere',
  'GET /usage': 'request counts',
  'GET /account': 'the account page',
  'POST /account/password': 'changes the password',
  'POST /account/privacy': "changes the account's privacy settings (consent required, retention)",
};

/**
 * The person's review pages (a review link's token, no session): ReviewLinkService writes their rows
 * itself, with the actor `review-link:<link id>` (review.read, review.confirm, correction.create).
 */
export const PAGE_AUDITED_BY_REVIEW_LINK: Readonly<Record<string, string>> = {
  'GET /review/:token': 'review.read',
  'POST /review/:token/answers/:simulationId/confirm': 'review.confirm',
  'POST /review/:token/answers/:simulationId/correct': 'correction.create',
};

/** The session's account as the audit records it; null when nobody is logged in. */
export const pageAuth = (req: FastifyRequest): AuthContext | null => (req.viewer ? { accountId: req.viewer.id, tier: req.viewer.tier, apiKeyId: null } : null);
