/**
 * The access log's rows for refused uses and for polled pages (issue 30, item 5):
 * - a panel refused for consent names each mind it would have asked, one `panel.create.denied` row
 *   per mind, whether the minds were chosen by id or by tag, over the API, the dashboard and MCP
 *   (a selection by tag used to leave one row with no mind, which `GET /audit?mindId=` missed);
 * - `PUT /minds/{id}/tags`, which answers the whole mind, writes its row;
 * - the live part of a panel's page, polled every second while the panel runs, is recorded at its
 *   first poll and not again at each of the next (one row a minute: LIVE_COALESCE_MS).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LIVE_COALESCE_MS } from '../../src/web/audit-pages.ts';
import { interviewMind, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

let srv: Service;
let sdk: TestSdk;
let web: WebClient;
const TAG = 'Refusal cohort';
const minds: string[] = [];
const QUESTIONS = [{ id: 'run', text: 'Do you run?', type: 'single' as const, options: ['Yes', 'No'] }];

before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', WORKER_POLL_MS: '20' });
  sdk = srv.sdk();
  for (const name of ['Covered Person', 'Uncovered Person']) minds.push(await interviewMind(sdk, name, [TAG]));
  await sdk.minds.setConsent(minds[0] ?? '', { status: 'granted', subject: 'Covered Person', obtainedAt: '2025-01-01', method: 'written', scope: ['simulate', 'panels'] });
  const { email } = await srv.admin.setPassword(srv.ownerAccountId, 'a long enough password');
  web = new WebClient(srv.baseUrl);
  assert.equal((await web.logIn(email, 'a long enough password')).status, 303);
  await sdk.account.setPrivacy({ requireConsent: true });
});
after(() => srv?.close());

/** The rows written by `fn` (the owner's account). */
async function rowsOf(fn: () => Promise<unknown>) {
  const all = () => srv.ctx.store.db.selectFrom('access_log').select(['id', 'action', 'mind_id', 'actor']).where('account_id', '=', srv.ownerAccountId).execute();
  const seen = new Set((await all()).map((r) => r.id));
  await fn();
  return (await all()).filter((r) => !seen.has(r.id));
}

const denied = (rows: Array<{ action: string; mind_id: string | null }>) =>
  rows
    .filter((r) => r.action === 'panel.create.denied')
    .map((r) => r.mind_id)
    .sort();

describe('a refused panel names each mind it would have asked', () => {
  it('over the API, by tag and by id: one row per mind, none without one', async () => {
    for (const selection of [{ tags: [TAG] }, { mindIds: minds }]) {
      const rows = await rowsOf(async () => {
        const res = await fetch(`${srv.api}/panels`, {
          method: 'POST',
          headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...selection, questions: QUESTIONS }),
        });
        assert.equal(res.status, 403, await res.text());
      });
      assert.deepEqual(denied(rows), [...minds].sort(), JSON.stringify(selection));
    }
    const audit = await sdk.audit.list({ mindId: minds[0] ?? '' }).all();
    assert.ok(audit.some((r) => r.action === 'panel.create.denied'), 'GET /audit?mindId= finds the refusal of the covered mind too');
  });

  it('on the dashboard, by tag', async () => {
    const rows = await rowsOf(async () => {
      const got = await web.submit('/panels', { name: 'Refused', tags: TAG, questions: JSON.stringify(QUESTIONS) }, '/panels/new');
      assert.equal(got.status, 403);
    });
    assert.deepEqual(denied(rows), [...minds].sort());
  });

  it('over MCP (run_panel), by tag', async () => {
    const rows = await rowsOf(async () => {
      const res = await fetch(`${srv.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_panel', arguments: { tags: [TAG], questions: QUESTIONS, wait: false } } }),
      });
      assert.match(await res.text(), /CONSENT_REQUIRED|consent/i);
    });
    assert.deepEqual(denied(rows), [...minds].sort());
  });
});

describe('reads that used to write no row', () => {
  it('PUT /minds/{id}/tags answers the mind and writes mind.update naming it', async () => {
    const rows = await rowsOf(() => sdk.minds.setTags(minds[1] ?? '', [TAG, 'Another']));
    assert.deepEqual(rows.map((r) => [r.action, r.mind_id]), [['mind.update', minds[1]]]);
  });

  it(`the live panel page is recorded at its first poll, not again at each poll within ${LIVE_COALESCE_MS / 1000} s`, async () => {
    await sdk.account.setPrivacy({ requireConsent: false });
    const { panel } = await sdk.panels.create({ mindIds: minds, questions: QUESTIONS });
    const first = await rowsOf(async () => assert.equal((await web.get(`/panels/${panel.id}/live`)).status, 200));
    assert.deepEqual(first.filter((r) => r.action === 'panel.read').map((r) => r.mind_id).sort(), [...minds].sort());
    const again = await rowsOf(async () => {
      for (let i = 0; i < 3; i++) assert.equal((await web.get(`/panels/${panel.id}/live`)).status, 200);
    });
    assert.deepEqual(again, []);
    const page = await rowsOf(async () => assert.equal((await web.get(`/panels/${panel.id}`)).status, 200));
    assert.equal(page.filter((r) => r.action === 'panel.read').length, 2, 'the page itself is recorded at every load');
  });
});
