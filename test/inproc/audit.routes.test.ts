import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { API_AUDITED, API_NOT_CONTENT, APP_NOT_AUDITED, apiRouteKey } from '../../src/http/audit-routes.ts';
import { MCP_AUDITED, MCP_NOT_CONTENT } from '../../src/http/plugins/audit-mcp.ts';
import { ServiceBackend } from '../../src/http/routes/mcp.ts';
import { PAGE_AUDITED, PAGE_AUDITED_BY_REVIEW_LINK, PAGE_NOT_CONTENT } from '../../src/web/audit-pages.ts';
import type { AccessLogRow } from '../../src/store/db/repos/access-log.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { buildWorld, correctionOf, reviewLinkOf, dashboardSession, panelOf, simulationOf, type Session, type World } from '../support/abuse.ts';
import { startInProcess, type InProcess } from '../support/inproc.ts';
import { ROUTES, send, type Targets } from '../support/owasp-routes.ts';

/**
 * Every route that reads or changes a person's content writes an access-log row (issue 25, item 3):
 * the audit tables (src/http/audit-routes.ts, src/web/audit-pages.ts, the MCP backend's in
 * src/http/plugins/audit-mcp.ts) are checked against Fastify's route list and the MCP backend's
 * methods, then each audited route is called once as its owner (the OWASP walk's requests,
 * test/support/owasp-routes.ts) and must have left its row, naming the right mind.
 */
let s: InProcess;
let w: World;
let base: string;
let session: Session;

before(async () => {
  s = await startInProcess({ LOGIN_RATE_LIMIT: '1000' });
  w = await buildWorld(s);
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  session = await dashboardSession(s.app, w.a.email, w.a.password);
});
after(() => s?.close());

const API = '/api/public/v1';
const auth = () => ({ accountId: w.a.accountId, tier: 'pro' as const, apiKeyId: null });
const rowsOfA = async (): Promise<AccessLogRow[]> => s.ctx.store.repos.accessLog.page({ accountId: w.a.accountId }, null, 100_000);

async function targets(): Promise<Targets> {
  const [key] = await s.ctx.services.accounts.listApiKeys(w.a.accountId);
  const p = w.a;
  return { mindId: p.mindId, twinId: p.twinId, snapshotId: p.snapshotId, artifactId: p.artifactId, pendingArtifactId: p.pendingArtifactId, signature: new URL(p.signedUrl).search.slice(1), keyId: key?.id ?? '', tagId: p.tagId, simulationId: p.simulationId, panelId: p.panelId, correctionId: p.correctionId, reviewLinkId: p.reviewLinkId, reviewToken: p.reviewToken };
}

/** A mind of A's to delete or change (a pending snapshot: no worker runs), and a simulation and panel of A's main mind. */
async function throwaway(): Promise<Targets> {
  const { mind, digitalTwin } = await s.ctx.services.minds.create(auth(), 'Audit throwaway');
  const snapshot = await s.ctx.services.snapshots.createFromFile(auth(), mind.id, { bytes: Buffer.from(teamsVtt(sampleInterview().slice(0, 4))) }, {});
  return { ...(await targets()), mindId: mind.id, twinId: digitalTwin.id, snapshotId: snapshot.mindAssessmentId, simulationId: await simulationOf(s, w.a), panelId: await panelOf(s, w.a), correctionId: await correctionOf(s, { accountId: w.a.accountId, mindId: mind.id }), ...(await reviewLinkOf(s, { accountId: w.a.accountId, mindId: mind.id })) };
}

/** The mind a route's row must name: the one in its path or body, A's main mind (simulations, panels), or none (lists). */
function expectedMind(key: string, t: Targets): string | null | 'any' {
  if (key.includes(':mindId') || key.endsWith(' /simulate')) return t.mindId;
  if (/\/(simulations|panels)\/:/.test(key) || key.endsWith('POST /panels') || key === 'POST /panels') return w.a.mindId;
  if (key.endsWith(' /simulations')) return t.mindId;
  if (key.endsWith('POST /minds') || key === 'POST /minds') return 'any';
  return null;
}

describe('the access log covers every content route', () => {
  it('every route of the app is audited or listed as not content, and every entry names a real route', () => {
    const keys = s.routes.map((r) => `${r.method} ${r.url}`);
    const unlisted: string[] = [];
    const apiKeys = new Set<string>();
    const pageKeys = new Set<string>();
    for (const key of keys) {
      const [method = '', url = ''] = key.split(' ');
      if (APP_NOT_AUDITED[key] !== undefined) continue;
      if (/^\/api\/(public\/v1|mindsim)\//.test(url)) {
        const k = apiRouteKey(method, url);
        apiKeys.add(k);
        if (!API_AUDITED[k] && !API_NOT_CONTENT[k]) unlisted.push(key);
      } else {
        pageKeys.add(key);
        if (!PAGE_AUDITED[key] && !PAGE_NOT_CONTENT[key] && !PAGE_AUDITED_BY_REVIEW_LINK[key]) unlisted.push(key);
      }
    }
    assert.deepEqual(unlisted, [], 'routes in no audit table: add them to API_AUDITED/API_NOT_CONTENT or PAGE_AUDITED/PAGE_NOT_CONTENT');
    const both = [...Object.keys(API_AUDITED).filter((k) => API_NOT_CONTENT[k]), ...Object.keys(PAGE_AUDITED).filter((k) => PAGE_NOT_CONTENT[k])];
    assert.deepEqual(both, [], 'routes both audited and listed as not content');
    const stale = [
      ...[...Object.keys(API_AUDITED), ...Object.keys(API_NOT_CONTENT)].filter((k) => !apiKeys.has(k)),
      ...[...Object.keys(PAGE_AUDITED), ...Object.keys(PAGE_NOT_CONTENT), ...Object.keys(PAGE_AUDITED_BY_REVIEW_LINK)].filter((k) => !pageKeys.has(k)),
      ...Object.keys(APP_NOT_AUDITED).filter((k) => !keys.includes(k)),
    ];
    assert.deepEqual(stale, [], 'audit table entries for routes that do not exist');
    for (const [k, why] of [...Object.entries(API_NOT_CONTENT), ...Object.entries(PAGE_NOT_CONTENT), ...Object.entries(APP_NOT_AUDITED)]) assert.ok(why.length > 5, `${k} says why`);
  });

  it('every method of the MCP backend is audited or listed as not content', () => {
    const methods = Object.getOwnPropertyNames(ServiceBackend.prototype).filter((m) => m !== 'constructor');
    assert.deepEqual(methods.filter((m) => !MCP_AUDITED[m] && !MCP_NOT_CONTENT[m]), [], 'MCP backend methods in no audit table (src/http/plugins/audit-mcp.ts)');
    assert.deepEqual([...Object.keys(MCP_AUDITED), ...Object.keys(MCP_NOT_CONTENT)].filter((m) => !methods.includes(m)), [], 'entries for methods that do not exist');
  });

  it('each audited API route, called by its owner under both prefixes, leaves its row naming the mind', async () => {
    const problems: string[] = [];
    const keys = await s.ctx.services.accounts.listApiKeys(w.a.accountId);
    assert.equal(keys.length, 1);
    const actor = `key:${keys[0]?.id}`;
    for (const [key, spec] of Object.entries(API_AUDITED)) {
      const [method = '', path = ''] = key.split(' ');
      for (const prefix of [API, '/api/mindsim']) {
        const route = ROUTES[`${method} ${API}${path}`];
        if (!route) {
          problems.push(`${key}: no request for it in test/support/owasp-routes.ts`);
          break;
        }
        const t = route.destructive ? await throwaway() : await targets();
        const seen = new Set((await rowsOfA()).map((r) => r.id));
        const req = route.req(t);
        const got = await send(base, method, { ...req, url: req.url.replace(API, prefix) }, { authorization: `Bearer ${w.a.apiKey}` });
        if (got.status >= 300) {
          problems.push(`${prefix} ${key}: ${got.status} ${got.text.slice(0, 160)}`);
          continue;
        }
        const fresh = (await rowsOfA()).filter((r) => !seen.has(r.id));
        const action = typeof spec.action === 'string' ? spec.action : 'mind.update';
        const mine = fresh.filter((r) => r.action === action);
        const mind = expectedMind(key, t);
        if (mine.length === 0) problems.push(`${prefix} ${key}: no ${action} row (got ${fresh.map((r) => r.action).join(', ') || 'none'})`);
        else if (mind !== 'any' && !mine.some((r) => r.mind_id === mind)) problems.push(`${prefix} ${key}: ${action} rows name ${mine.map((r) => r.mind_id).join(', ')}, not ${mind}`);
        for (const r of mine) if (r.actor !== actor || r.ip !== '127.0.0.1') problems.push(`${prefix} ${key}: actor ${r.actor}, ip ${r.ip}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('each audited dashboard page and form, used by its owner, leaves its row naming the mind (actor user:<account>)', async () => {
    const problems: string[] = [];
    for (const [key, spec] of Object.entries(PAGE_AUDITED)) {
      const route = ROUTES[key];
      if (!route) {
        problems.push(`${key}: no request for it in test/support/owasp-routes.ts`);
        continue;
      }
      const t = route.destructive ? await throwaway() : await targets();
      const seen = new Set((await rowsOfA()).map((r) => r.id));
      const got = await send(base, key.split(' ')[0] ?? '', route.req(t), { session });
      if (got.status >= 400) {
        problems.push(`${key}: ${got.status} ${got.text.slice(0, 160)}`);
        continue;
      }
      const action = typeof spec.action === 'string' ? spec.action : '';
      const mine = (await rowsOfA()).filter((r) => !seen.has(r.id) && r.action === action);
      const mind = expectedMind(key, t);
      if (mine.length === 0) problems.push(`${key}: no ${action} row`);
      else if (mind !== 'any' && !mine.some((r) => r.mind_id === mind)) problems.push(`${key}: ${action} rows name ${mine.map((r) => r.mind_id).join(', ')}, not ${mind}`);
      else if (!mine.every((r) => r.actor === `user:${w.a.accountId}`)) problems.push(`${key}: actor ${mine.map((r) => r.actor).join(', ')}`);
    }
    assert.deepEqual(problems, []);
  });

  /** Pages left out that show the mind's name (never its words, results or e-mail), each with why. */
  const NAMED_NOT_LOGGED: Record<string, string> = {
    'GET /minds/:mindId/audit': "the access log's own page, headed by the mind's name: reading the log is not logged (PRIVACY.md)",
  };

  it("no route left out of the log answers with the mind's name or the person's words", async () => {
    const [word = '', mindName = ''] = w.a.canaries;
    const shown: string[] = [];
    const entries: Array<[string, string, Session | undefined]> = [
      ...Object.keys(API_NOT_CONTENT).map((k): [string, string, Session | undefined] => [k, `${k.split(' ')[0]} ${API}${k.split(' ')[1]}`, undefined]),
      ...Object.keys(PAGE_NOT_CONTENT).map((k): [string, string, Session | undefined] => [k, k, session]),
    ];
    for (const [key, route, viaSession] of entries) {
      const spec = ROUTES[route];
      if (!spec || spec.destructive || key.split(' ')[0] !== 'GET') continue;
      const got = await send(base, 'GET', spec.req(await targets()), viaSession ? { session: viaSession } : { authorization: `Bearer ${w.a.apiKey}` });
      if ((got.text.includes(mindName) && !NAMED_NOT_LOGGED[key]) || got.text.includes(word)) shown.push(`${key} (${got.status})`);
    }
    assert.deepEqual(shown, []);
  });

  it('MCP tool calls that read content leave one row per mind and action, with the key as actor', async () => {
    const t = await targets();
    const rpc = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const calls: Array<[string, Record<string, unknown>, string, string | null]> = [
      ['create_mind', { name: 'Made over MCP' }, 'mind.create', 'any'],
      ['list_minds', {}, 'minds.list', null],
      ['get_all_minds', {}, 'minds.list', null],
      ['search_minds', { query: 'Mind' }, 'minds.search', null],
      ['upload_transcript', { mindId: t.mindId, fileName: 'm.vtt', text: teamsVtt(sampleInterview().slice(0, 4)) }, 'snapshot.create', t.mindId],
      ['get_signed_upload_url', { mindId: t.mindId, fileName: 'm.vtt' }, 'upload.create', t.mindId],
      ['create_snapshot', { mindId: t.mindId, digitalTwinId: t.twinId, artifactId: t.artifactId }, 'snapshot.create', t.mindId],
      ['simulate', { mindId: t.mindId, message: 'How do you start your day?', model: 'mind-reasoner-standard' }, 'simulate', t.mindId],
      ['list_simulations', { mindId: t.mindId }, 'simulations.list', t.mindId],
      ['get_simulation', { simulationId: t.simulationId }, 'simulation.read', t.mindId],
      ['get_profile', { mindId: t.mindId }, 'profile.read', t.mindId],
      ['run_panel', { mindIds: [t.mindId], questions: [{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }], wait: false }, 'panel.create', t.mindId],
      ['get_panel', { panelId: t.panelId, includeAnswers: 10 }, 'panel.read', t.mindId],
    ];
    const problems: string[] = [];
    const [key] = await s.ctx.services.accounts.listApiKeys(w.a.accountId);
    for (const [tool, args, action, mind] of calls) {
      const seen = new Set((await rowsOfA()).map((r) => r.id));
      const got = await send(base, 'POST', { url: '/mcp', json: rpc(tool, args) }, { authorization: `Bearer ${w.a.apiKey}` });
      if (got.status !== 200 || /"isError":\s*true/.test(got.text)) {
        problems.push(`${tool}: ${got.status} ${got.text.slice(0, 200)}`);
        continue;
      }
      const fresh = (await rowsOfA()).filter((r) => !seen.has(r.id));
      const mine = fresh.filter((r) => r.action === action);
      if (mine.length !== 1 && mind !== null) problems.push(`${tool}: ${mine.length} ${action} rows (${fresh.map((r) => r.action).join(', ')})`);
      else if (mind !== 'any' && mine[0]?.mind_id !== mind) problems.push(`${tool}: names ${mine[0]?.mind_id}, not ${mind}`);
      else if (mine[0]?.actor !== `key:${key?.id}`) problems.push(`${tool}: actor ${mine[0]?.actor}`);
    }
    // get_snapshot_status reads no content: no row.
    const seen = new Set((await rowsOfA()).map((r) => r.id));
    await send(base, 'POST', { url: '/mcp', json: rpc('get_snapshot_status', { mindId: t.mindId, snapshotId: t.snapshotId }) }, { authorization: `Bearer ${w.a.apiKey}` });
    assert.deepEqual((await rowsOfA()).filter((r) => !seen.has(r.id)), []);
    assert.deepEqual(problems, []);
  });
});
