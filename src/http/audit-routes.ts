import { each, noMind, param, paramMind, pick, str, strings, type AuditCall, type AuditSpec } from './plugins/audit.ts';

/**
 * The public API's access log, route by route ("METHOD /path" as Fastify registers it under the
 * API prefix, the prefix left out): every route is either audited here (what the access is called,
 * which minds it touched, the resource) or in API_NOT_CONTENT with why it reveals nothing of a
 * person. test/inproc/audit.routes.test.ts checks both against Fastify's route list.
 */

const bodyMind = (c: AuditCall) => [str(pick(c.body, 'mindId'))].filter((x): x is string => x !== undefined);
const panelMinds = (c: AuditCall) => {
  const panelId = c.params.panelId ?? str(pick(c.payload, 'panel', 'id'));
  return panelId ? c.accessLog.mindsOfPanel(c.auth, panelId) : [];
};
/** A new panel's minds; when it was refused (no panel), the minds the body named (the refusal's own minds come first: plugins/audit.ts). */
const newPanelMinds = (c: AuditCall) => (c.payload === undefined ? strings(pick(c.body, 'mindIds')) : panelMinds(c));
const panelId = (c: AuditCall) => c.params.panelId ?? str(pick(c.payload, 'panel', 'id'));
/** A panel's answers: the minds whose answers the page holds; for CSV (a stream), the mind asked for or every mind of the panel. */
const answerMinds = (c: AuditCall) => {
  if (c.payload !== undefined) return each(pick(c.payload, 'answers'), 'mindId');
  const mindId = str(c.query.mindId);
  return mindId ? [mindId] : panelMinds(c);
};
const simulationMind = (c: AuditCall) => {
  const mindId = str(pick(c.payload, 'simulation', 'mindId'));
  return mindId ? [mindId] : c.accessLog.mindOfSimulation(c.auth, c.params.simulationId ?? '');
};
/** A correction made from a simulation: its mind as answered, else the simulation's (a refusal). */
const correctedMind = (c: AuditCall) => {
  const mindId = str(pick(c.payload, 'correction', 'mindId'));
  return mindId ? [mindId] : c.accessLog.mindOfSimulation(c.auth, c.params.simulationId ?? '');
};
const listedMinds = (c: AuditCall) => {
  const listed = each(pick(c.payload, 'simulations'), 'mindId');
  const asked = str(c.query.mindId);
  return listed.length > 0 ? listed : asked ? [asked] : [];
};
/** The minds a page of panels names: those each panel left out (no completed snapshot), with their names. */
const leftOutMinds = (c: AuditCall) => {
  const panels: unknown = pick(c.payload, 'panels');
  return [...new Set((Array.isArray(panels) ? panels : []).flatMap((p: unknown) => each(pick(p, 'skippedMinds'), 'mindId')))];
};
/** A consent record in the body makes the update a consent change. */
const mindUpdate = (c: AuditCall) => (pick(c.body, 'consent') !== undefined ? 'consent.change' : 'mind.update');

export const API_AUDITED: Readonly<Record<string, AuditSpec>> = {
  // The mind itself: name, email, consent.
  'POST /minds': { action: 'mind.create', minds: (c) => [str(pick(c.payload, 'mind', 'id'))].filter((x): x is string => x !== undefined) },
  'GET /minds': { action: 'minds.list', minds: noMind },
  'GET /minds/search': { action: 'minds.search', minds: noMind },
  'GET /minds/:mindId': { action: 'mind.read', minds: paramMind },
  'PUT /minds/:mindId': { action: mindUpdate, minds: paramMind },
  'PATCH /minds/:mindId': { action: 'mind.update', minds: paramMind },
  // Sets the mind's tags and answers the whole mind (name, e-mail, consent).
  'PUT /minds/:mindId/tags': { action: 'mind.update', minds: paramMind },
  'DELETE /minds/:mindId': { action: 'mind.delete', minds: paramMind },
  'GET /minds/:mindId/export': { action: 'mind.export', minds: paramMind },
  // The person's words and what is derived from them.
  'GET /minds/:mindId/signed-url': { action: 'upload.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'artifactId')) },
  'POST /minds/:mindId/snapshots': { action: 'snapshot.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'mindAssessmentId')) },
  'GET /minds/:mindId/snapshots/:snapshotId': { action: 'snapshot.read', minds: paramMind, resource: param('snapshotId') },
  'DELETE /minds/:mindId/snapshots/:snapshotId': { action: 'snapshot.delete', minds: paramMind, resource: param('snapshotId') },
  'GET /minds/:mindId/snapshots/:snapshotId/psychometrics': { action: 'psychometrics.read', minds: paramMind, resource: param('snapshotId') },
  'GET /minds/:mindId/snapshots/:snapshotId/topics': { action: 'topics.read', minds: paramMind, resource: param('snapshotId') },
  'GET /minds/:mindId/psychometrics': { action: 'psychometrics.read', minds: paramMind },
  'GET /minds/:mindId/topics': { action: 'topics.read', minds: paramMind },
  'GET /minds/:mindId/profile': { action: 'profile.read', minds: paramMind },
  // Simulations: asked, read, deleted.
  'POST /simulate': { action: 'simulate', minds: bodyMind, resource: (c) => str(pick(c.payload, 'simulationId')) ?? str(pick(c.body, 'conversationId')) },
  'GET /simulations': { action: 'simulations.list', minds: listedMinds },
  'GET /simulations/:simulationId': { action: 'simulation.read', minds: simulationMind, resource: param('simulationId') },
  'DELETE /simulations/:simulationId': { action: 'simulation.delete', minds: simulationMind, resource: param('simulationId'), before: true },
  // Corrections: the person's own words, as the transcript's (issue 32).
  'POST /minds/:mindId/corrections': { action: 'correction.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'correction', 'id')) },
  'GET /minds/:mindId/corrections': { action: 'corrections.list', minds: paramMind },
  'GET /minds/:mindId/corrections/:correctionId': { action: 'correction.read', minds: paramMind, resource: param('correctionId') },
  'DELETE /minds/:mindId/corrections/:correctionId': { action: 'correction.delete', minds: paramMind, resource: param('correctionId') },
  'POST /simulations/:simulationId/corrections': { action: 'correction.create', minds: correctedMind, resource: (c) => str(pick(c.payload, 'correction', 'id')) },
  // Review links open the mind's answers to the person: made, listed and revoked (the person's own reads and corrections are logged as review-link:<id>).
  'POST /minds/:mindId/review-links': { action: 'review_link.create', minds: paramMind, resource: (c) => str(pick(c.payload, 'reviewLink', 'id')) },
  'GET /minds/:mindId/review-links': { action: 'review_links.list', minds: paramMind },
  'DELETE /minds/:mindId/review-links/:linkId': { action: 'review_link.revoke', minds: paramMind, resource: param('linkId') },
  // Panels: their minds are asked, their results and answers read, their answers deleted.
  'POST /panels': { action: 'panel.create', minds: newPanelMinds, resource: panelId },
  // The list names the minds each panel left out (no completed snapshot): their names.
  'GET /panels': { action: 'panels.list', minds: leftOutMinds },
  'GET /panels/:panelId': { action: 'panel.read', minds: panelMinds, resource: panelId },
  // Answers the panel with its results so far.
  'POST /panels/:panelId/cancel': { action: 'panel.cancel', minds: panelMinds, resource: panelId },
  'GET /panels/:panelId/answers': { action: 'panel.answers', minds: answerMinds, resource: panelId },
  'DELETE /panels/:panelId': { action: 'panel.delete', minds: panelMinds, resource: panelId, before: true },
};

/** Routes of the API that show nothing of a person's words or identity, each with why. */
export const API_NOT_CONTENT: Readonly<Record<string, string>> = {
  'GET /tags': "the account's tag names",
  'PUT /tags/:tagId': "renames one of the account's tags",
  'DELETE /tags/:tagId': "deletes one of the account's tags",
  'GET /minds/:mindId/snapshots': 'statuses, dates and counts of the uploads, no words',
  'GET /minds/:mindId/snapshots/:snapshotId/status': 'a processing status',
  'POST /minds/:mindId/snapshots/:snapshotId/link': 'moves a snapshot between twins of its mind',
  'POST /minds/:mindId/snapshots/:snapshotId/unlink': 'moves a snapshot out of its twin',
  'GET /minds/:mindId/digital-twins': "the mind's twins: names and ids",
  'POST /minds/:mindId/digital-twins': 'a new twin: a name',
  'PATCH /minds/:mindId/digital-twins/:twinId': 'renames a twin',
  'GET /models': 'the simulation models',
  'GET /webhook-events': 'events the account received from elsewhere',
  'GET /usage': 'request counts and latencies',
  'GET /audit': 'the access log itself: ids, actions and times, no content',
  'GET /account/privacy': "the account's privacy settings (consent required, retention, redaction default)",
  'PUT /account/privacy': "changes the account's privacy settings; the erasures retention makes are recorded by its job",
};

export const API_PREFIX_PATTERN = /^\/api\/(public\/v1|mindsim)(?=\/)/;

/** The table key of an API request: "METHOD /path" without the API prefix. */
export const apiRouteKey = (method: string, url: string): string => `${method} ${url.replace(API_PREFIX_PATTERN, '')}`;

/** Routes outside the API scope and the dashboard's pages, none of which shows a person's content ("METHOD /url" as registered). */
export const APP_NOT_AUDITED: Readonly<Record<string, string>> = {
  'POST /mcp': 'each tool call that reads or changes content is recorded by the MCP backend (plugins/audit-mcp.ts)',
  'GET /mcp': 'answers 405 (the endpoint is stateless)',
  'DELETE /mcp': 'answers 405 (the endpoint is stateless)',
  'PUT /uploads/:artifactId': 'receives the bytes for a signed URL, whose creation (upload.create) and snapshot (snapshot.create) are recorded',
  'POST /webhook': 'receives events from elsewhere',
  'GET /healthz': 'the health check',
  'GET /api/public/v1/openapi.json': "the API's description",
  'GET /api/mindsim/openapi.json': "the API's description",
  'GET /docs': "the API's reference pages",
  'GET /docs/json': "the API's description",
  'GET /docs/yaml': "the API's description",
  'GET /docs/static/*': "the API reference's assets",
  'GET /docs/static/index.html': "the API reference's assets",
  'GET /docs/static/swagger-initializer.js': "the API reference's assets",
  'GET /assets/*': "the dashboard's styles and script",
  'GET /assets/vendor/*': "the dashboard's vendored script (htmx)",
};
