/**
 * The route table of the OWASP API Top 10 walk (test/inproc/abuse.owasp.test.ts): one entry per route of
 * the app, keyed "METHOD /path" exactly as Fastify registers it, so a route added later fails the
 * walk until it joins the table. Each entry says how the route is reached (API key, session,
 * signed URL, Basic credentials, nothing) and how to aim one request at an account's objects.
 */
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

export type Kind = 'api' | 'mcp' | 'page' | 'form' | 'upload' | 'webhook' | 'public';

/** The objects a request is aimed at (an account's own, another's, or a mix). */
export interface Targets {
  mindId: string;
  twinId: string;
  snapshotId: string;
  artifactId: string;
  pendingArtifactId: string;
  /** Query string (expires, signature) of a valid signed URL of the account. */
  signature: string;
  keyId: string;
  /** A tag of the account's (on its mind). */
  tagId: string;
  /** A simulation (conversation) of the account's. */
  simulationId: string;
  /** A panel of the account's (queued). */
  panelId: string;
  /** A correction of the account's mind. */
  correctionId: string;
  /** A review link of the account's mind, and its token. */
  reviewLinkId: string;
  reviewToken: string;
}

export interface Req {
  url: string;
  json?: unknown;
  form?: Record<string, string>;
  parts?: Record<string, string>;
  raw?: string;
  headers?: Record<string, string>;
}

export interface RouteSpec {
  kind: Kind;
  req: (t: Targets) => Req;
  /** The request names an account's object: another account must get "not found" (or 403 for signed URLs). */
  owned?: boolean;
  /** Names objects below the mind (snapshot, artifact, twin): also tried with B's mind and A's inner ids. */
  inner?: boolean;
  /** Changes or removes the object: the owner's control request runs against a throwaway one. */
  destructive?: boolean;
}

const API = '/api/public/v1';
const tool = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
const vtt = teamsVtt(sampleInterview().slice(0, 4));
const none = (url: string) => () => ({ url });

const V1_AND_OTHERS: Record<string, RouteSpec> = {
  // The public API (Bearer API key).
  'POST /api/public/v1/minds': { kind: 'api', req: () => ({ url: `${API}/minds`, json: { name: 'Walk' } }) },
  'GET /api/public/v1/minds': { kind: 'api', req: none(`${API}/minds`) },
  'GET /api/public/v1/minds/:mindId': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}` }) },
  'PATCH /api/public/v1/minds/:mindId': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}`, json: { name: 'Renamed by the walk' } }), destructive: true },
  'DELETE /api/public/v1/minds/:mindId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}` }) },
  'GET /api/public/v1/minds/search': { kind: 'api', req: none(`${API}/minds/search?query=mind`) },
  'PUT /api/public/v1/minds/:mindId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}`, json: { email: 'walk@example.com', scope: 'public' } }) },
  'PUT /api/public/v1/minds/:mindId/tags': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/tags`, json: { tagNames: ['Walk'] } }) },
  'GET /api/public/v1/tags': { kind: 'api', req: none(`${API}/tags`) },
  'PUT /api/public/v1/tags/:tagId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/tags/${t.tagId}`, json: { name: `Renamed by the walk ${t.tagId.slice(0, 8)}` } }) },
  'DELETE /api/public/v1/tags/:tagId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/tags/${t.tagId}` }) },
  'GET /api/public/v1/minds/:mindId/signed-url': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/signed-url?fileName=w.vtt` }) },
  'POST /api/public/v1/minds/:mindId/snapshots': {
    kind: 'api', owned: true, inner: true,
    req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots`, parts: { artifactId: t.artifactId, digitalTwinId: t.twinId } }),
  },
  'GET /api/public/v1/minds/:mindId/snapshots': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots` }) },
  'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/status': { kind: 'api', owned: true, inner: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}/status` }) },
  'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId': { kind: 'api', owned: true, inner: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}?includeTranscript=true` }) },
  'DELETE /api/public/v1/minds/:mindId/snapshots/:snapshotId': { kind: 'api', owned: true, inner: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}` }) },
  'POST /api/public/v1/minds/:mindId/snapshots/:snapshotId/link': {
    kind: 'api', owned: true, inner: true, destructive: true,
    req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}/link`, json: { digitalTwinId: t.twinId } }),
  },
  'POST /api/public/v1/minds/:mindId/snapshots/:snapshotId/unlink': { kind: 'api', owned: true, inner: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}/unlink` }) },
  'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/psychometrics': { kind: 'api', owned: true, inner: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}/psychometrics` }) },
  'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/topics': { kind: 'api', owned: true, inner: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/snapshots/${t.snapshotId}/topics` }) },
  'GET /api/public/v1/minds/:mindId/psychometrics': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/psychometrics` }) },
  'GET /api/public/v1/minds/:mindId/export': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/export` }) },
  'GET /api/public/v1/minds/:mindId/topics': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/topics` }) },
  'GET /api/public/v1/minds/:mindId/digital-twins': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/digital-twins` }) },
  'POST /api/public/v1/minds/:mindId/digital-twins': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/digital-twins`, json: { name: 'Walk twin' } }) },
  'PATCH /api/public/v1/minds/:mindId/digital-twins/:twinId': {
    kind: 'api', owned: true, inner: true, destructive: true,
    req: (t) => ({ url: `${API}/minds/${t.mindId}/digital-twins/${t.twinId}`, json: { name: 'Renamed by the walk' } }),
  },
  'POST /api/public/v1/simulate': {
    kind: 'api', owned: true, inner: true,
    req: (t) => ({ url: `${API}/simulate`, json: { mindId: t.mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How do you start your day?' }, conversationId: t.simulationId } }),
  },
  'GET /api/public/v1/simulations': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/simulations?mindId=${t.mindId}` }) },
  'GET /api/public/v1/simulations/:simulationId': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/simulations/${t.simulationId}` }) },
  'DELETE /api/public/v1/simulations/:simulationId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/simulations/${t.simulationId}` }) },
  'POST /api/public/v1/simulations/:simulationId/corrections': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/simulations/${t.simulationId}/corrections`, json: { answer: 'Coffee first, then the news.' } }) },
  'POST /api/public/v1/minds/:mindId/corrections': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/corrections`, json: { scenario: 'Tea or coffee?', answer: 'Tea, always.' } }) },
  'GET /api/public/v1/minds/:mindId/corrections': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/corrections` }) },
  'GET /api/public/v1/minds/:mindId/corrections/:correctionId': { kind: 'api', owned: true, inner: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/corrections/${t.correctionId}` }) },
  'DELETE /api/public/v1/minds/:mindId/corrections/:correctionId': { kind: 'api', owned: true, inner: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/corrections/${t.correctionId}` }) },
  'POST /api/public/v1/minds/:mindId/review-links': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/review-links`, json: { expiresInDays: 7 } }) },
  'GET /api/public/v1/minds/:mindId/review-links': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/review-links` }) },
  'DELETE /api/public/v1/minds/:mindId/review-links/:linkId': { kind: 'api', owned: true, inner: true, destructive: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/review-links/${t.reviewLinkId}` }) },
  'POST /api/public/v1/panels': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/panels`, json: { mindIds: [t.mindId], questions: [{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }] } }) },
  'GET /api/public/v1/panels': { kind: 'api', req: none(`${API}/panels`) },
  'GET /api/public/v1/panels/:panelId': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/panels/${t.panelId}` }) },
  'GET /api/public/v1/panels/:panelId/answers': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/panels/${t.panelId}/answers?format=csv` }) },
  'POST /api/public/v1/panels/:panelId/cancel': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/panels/${t.panelId}/cancel` }) },
  'DELETE /api/public/v1/panels/:panelId': { kind: 'api', owned: true, destructive: true, req: (t) => ({ url: `${API}/panels/${t.panelId}` }) },
  'GET /api/public/v1/models': { kind: 'api', req: none(`${API}/models`) },
  'GET /api/public/v1/minds/:mindId/profile': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/minds/${t.mindId}/profile` }) },
  'GET /api/public/v1/webhook-events': { kind: 'api', req: none(`${API}/webhook-events`) },
  'GET /api/public/v1/usage': { kind: 'api', req: none(`${API}/usage?from=2026-01-01&to=2026-01-31`) },
  'GET /api/public/v1/account/privacy': { kind: 'api', req: none(`${API}/account/privacy`) },
  'PUT /api/public/v1/account/privacy': { kind: 'api', req: () => ({ url: `${API}/account/privacy`, json: { requireConsent: false } }) },
  'GET /api/public/v1/audit': { kind: 'api', owned: true, req: (t) => ({ url: `${API}/audit?mindId=${t.mindId}&from=2026-01-01` }) },
  // MCP (Bearer API key, JSON-RPC).
  'POST /mcp': { kind: 'mcp', owned: true, req: (t) => ({ url: '/mcp', json: tool('get_profile', { mindId: t.mindId }) }) },
  'GET /mcp': { kind: 'mcp', req: none('/mcp') },
  'DELETE /mcp': { kind: 'mcp', req: none('/mcp') },
  // Receivers: a signed URL, or webhook Basic credentials.
  'PUT /uploads/:artifactId': { kind: 'upload', owned: true, req: (t) => ({ url: `/uploads/${t.pendingArtifactId}?${t.signature}`, raw: vtt }), destructive: true },
  'POST /webhook': { kind: 'webhook', req: () => ({ url: '/webhook', json: { event: 'walk' } }) },
  // Open to anyone.
  'GET /healthz': { kind: 'public', req: none('/healthz') },
  'GET /api/public/v1/openapi.json': { kind: 'public', req: none(`${API}/openapi.json`) },
  'GET /docs': { kind: 'public', req: none('/docs') },
  'GET /docs/static/index.html': { kind: 'public', req: none('/docs/static/index.html') },
  'GET /docs/static/swagger-initializer.js': { kind: 'public', req: none('/docs/static/swagger-initializer.js') },
  'GET /docs/json': { kind: 'public', req: none('/docs/json') },
  'GET /docs/yaml': { kind: 'public', req: none('/docs/yaml') },
  'GET /docs/static/*': { kind: 'public', req: none('/docs/static/swagger-ui.css') },
  'GET /assets/*': { kind: 'public', req: none('/assets/app.js') },
  'GET /assets/vendor/*': { kind: 'public', req: none('/assets/vendor/htmx.min.js') },
  'GET /': { kind: 'public', req: none('/') },
  'GET /signup': { kind: 'public', req: none('/signup') },
  'GET /login': { kind: 'public', req: none('/login') },
  'POST /signup': { kind: 'public', req: () => ({ url: '/signup', form: { email: `walk-${Date.now()}@example.com`, password: 'a long enough password' } }) },
  'POST /login': { kind: 'public', req: () => ({ url: '/login', form: { email: 'nobody@example.com', password: 'wrong password!' } }) },
  // The dashboard (session cookie; forms and scripts send the CSRF token).
  'POST /logout': { kind: 'form', req: () => ({ url: '/logout', form: {} }), destructive: true },
  'GET /keys': { kind: 'page', req: none('/keys') },
  'POST /keys': { kind: 'form', req: () => ({ url: '/keys', form: { name: 'walk' } }) },
  'POST /keys/:keyId/revoke': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/keys/${t.keyId}/revoke`, form: {} }) },
  'GET /minds': { kind: 'page', req: none('/minds') },
  'POST /minds': { kind: 'form', req: () => ({ url: '/minds', form: { name: 'Walk' } }) },
  'POST /minds/:mindId/tags': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/tags`, form: { tags: 'Walk, Walked' } }) },
  'POST /minds/:mindId/rename': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/rename`, form: { name: 'Renamed by the walk' } }) },
  'GET /minds/:mindId/delete': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/delete` }) },
  'POST /minds/:mindId/delete': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/delete`, form: {} }) },
  'GET /minds/:mindId': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}` }) },
  'GET /minds/:mindId/snapshots': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/snapshots` }) },
  'GET /minds/:mindId/profile': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/profile` }) },
  'GET /minds/:mindId/export': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/export` }) },
  'GET /minds/:mindId/audit': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/audit` }) },
  'POST /minds/:mindId/uploads': { kind: 'form', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/uploads`, json: { fileName: 'w.vtt' } }) },
  'POST /minds/:mindId/snapshots': { kind: 'form', owned: true, inner: true, req: (t) => ({ url: `/minds/${t.mindId}/snapshots`, json: { artifactId: t.artifactId } }) },
  'POST /minds/:mindId/snapshots/:snapshotId/delete': { kind: 'form', owned: true, inner: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/snapshots/${t.snapshotId}/delete`, form: {} }) },
  'POST /minds/:mindId/simulate': { kind: 'form', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/simulate`, form: { message: 'How do you start your day?' } }) },
  'POST /minds/:mindId/corrections': { kind: 'form', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/corrections`, form: { scenario: 'Tea or coffee?', answer: 'Tea, always.' } }) },
  'POST /minds/:mindId/corrections/:correctionId/delete': { kind: 'form', owned: true, inner: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/corrections/${t.correctionId}/delete`, form: {} }) },
  'POST /minds/:mindId/review-links': { kind: 'form', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/review-links`, form: { expiresInDays: '7' } }) },
  'POST /minds/:mindId/review-links/:linkId/revoke': { kind: 'form', owned: true, inner: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/review-links/${t.reviewLinkId}/revoke`, form: {} }) },
  // The person's review page: the link's token is the only credential (no account, no session; forms carry the page's CSRF token).
  'GET /review/:token': { kind: 'public', req: (t) => ({ url: `/review/${t.reviewToken}` }) },
  'POST /review/:token/answers/:simulationId/confirm': { kind: 'public', req: (t) => ({ url: `/review/${t.reviewToken}/answers/${t.simulationId}/confirm`, form: {} }) },
  'POST /review/:token/answers/:simulationId/correct': { kind: 'public', req: (t) => ({ url: `/review/${t.reviewToken}/answers/${t.simulationId}/correct`, form: { answer: 'Tea, always.' } }) },
  'GET /minds/:mindId/conversations/:simulationId': { kind: 'page', owned: true, inner: true, req: (t) => ({ url: `/minds/${t.mindId}/conversations/${t.simulationId}` }) },
  'GET /panels': { kind: 'page', req: none('/panels?page=1') },
  'GET /panels/new': { kind: 'page', req: none('/panels/new') },
  'POST /panels': {
    kind: 'form', owned: true,
    req: (t) => ({ url: '/panels', form: { name: 'Walk', mindIds: t.mindId, questions: JSON.stringify([{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }]) } }),
  },
  'GET /panels/:panelId': { kind: 'page', owned: true, req: (t) => ({ url: `/panels/${t.panelId}` }) },
  'GET /panels/:panelId/live': { kind: 'page', owned: true, req: (t) => ({ url: `/panels/${t.panelId}/live` }) },
  'GET /panels/:panelId/answers': { kind: 'page', owned: true, req: (t) => ({ url: `/panels/${t.panelId}/answers?questionId=remote&option=Yes` }) },
  'POST /panels/:panelId/cancel': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/panels/${t.panelId}/cancel`, form: {} }) },
  'GET /panels/:panelId/delete': { kind: 'page', owned: true, req: (t) => ({ url: `/panels/${t.panelId}/delete` }) },
  'POST /panels/:panelId/delete': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/panels/${t.panelId}/delete`, form: {} }) },
  'GET /integrations/webhooks': { kind: 'page', req: none('/integrations/webhooks') },
  'POST /integrations/webhooks/credentials': { kind: 'form', req: () => ({ url: '/integrations/webhooks/credentials', form: {} }), destructive: true },
  'GET /integrations/webhooks/events': { kind: 'page', req: none('/integrations/webhooks/events') },
  'GET /usage': { kind: 'page', req: none('/usage') },
  'GET /account': { kind: 'page', req: none('/account') },
  'POST /account/password': { kind: 'form', req: () => ({ url: '/account/password', form: { current: 'wrong password!', password: 'another long password' } }) },
  'POST /account/privacy': { kind: 'form', req: () => ({ url: '/account/privacy', form: { retentionDays: '' } }) },
  'POST /minds/:mindId/consent': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/consent`, form: { status: 'unknown' } }) },
  'POST /minds/:mindId/redaction': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/redaction`, form: { redaction: 'off' } }) },
  'GET /minds/:mindId/consent/withdraw': { kind: 'page', owned: true, req: (t) => ({ url: `/minds/${t.mindId}/consent/withdraw` }) },
  'POST /minds/:mindId/consent/withdraw': { kind: 'form', owned: true, destructive: true, req: (t) => ({ url: `/minds/${t.mindId}/consent/withdraw`, form: {} }) },
};

/** The API under its newer prefix (/api/mindsim) is the same implementation: every check runs there too. */
const ALIAS = '/api/mindsim';
const aliased = (spec: RouteSpec): RouteSpec => ({
  ...spec,
  req: (t) => {
    const r = spec.req(t);
    return { ...r, url: r.url.replace(API, ALIAS) };
  },
});
export const ROUTES: Record<string, RouteSpec> = {
  ...V1_AND_OTHERS,
  ...Object.fromEntries(Object.entries(V1_AND_OTHERS).flatMap(([k, v]) => (k.includes(` ${API}/`) ? [[k.replace(API, ALIAS), aliased(v)]] : []))),
};

/** Authorization headers that must not get in: absent, malformed, or a key that does not exist. */
export const BAD_BEARERS: Record<string, string | undefined> = {
  'no header': undefined,
  'empty': '',
  'scheme only': 'Bearer',
  'scheme and spaces': 'Bearer    ',
  'Basic scheme': 'Basic dXNlcjpwYXNz',
  'unknown prefix': 'Bearer msk_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  'not a key': 'Bearer hello',
  'two tokens': 'Bearer msk_1 msk_2',
  'very long': `Bearer msk_${'a'.repeat(8000)}`,
  'JWT-looking': 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
};

export interface Auth {
  /** `Authorization` header value (absent when undefined). */
  authorization?: string;
  /** A dashboard session: its cookies, and the CSRF token sent with forms and scripts. */
  session?: { cookie: string; csrf: string };
}

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One request over real HTTP, as the route's clients send it (JSON, form with `_csrf`, multipart, raw). */
export async function send(base: string, method: string, req: Req, auth: Auth = {}): Promise<Got> {
  const headers: Record<string, string> = { ...req.headers };
  if (auth.authorization !== undefined) headers.authorization = auth.authorization;
  if (auth.session) {
    headers.cookie = auth.session.cookie;
    headers['x-csrf-token'] = auth.session.csrf;
  }
  let body: BodyInit | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['content-type'] ??= 'application/json';
    headers.accept ??= req.url === '/mcp' ? 'application/json, text/event-stream' : 'application/json';
  } else if (req.form) {
    body = new URLSearchParams({ ...(auth.session ? { _csrf: auth.session.csrf } : {}), ...req.form }).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (req.parts) {
    const form = new FormData();
    for (const [k, v] of Object.entries(req.parts)) form.append(k, v);
    body = form;
  } else if (req.raw !== undefined) body = req.raw;
  const res = await fetch(`${base}${req.url}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, json };
}
