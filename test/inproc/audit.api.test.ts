import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/store/db/kysely.ts';
import type { AuditEntry } from '@mindsim/sdk';
import { AUDIT_RETENTION_SETTING } from '../../src/domain/access-log.ts';
import type { Store } from '../../src/store/store.ts';
import { consentTo } from '../../testkit/consent.ts';
import { failure, interviewMind, type TestSdk } from '../../testkit/sdk.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';
import { waitUntil } from '../../testkit/wait.ts';

/**
 * The access log over real HTTP (issue 25, item 3): GET /audit for the calling account only, paged
 * and filtered by mind and time; its rows committed before the answer leaves (an answer whose row
 * cannot be written is withheld); kept after the mind is deleted; the table append-only in the
 * database itself on SQLite and PostgreSQL; the dashboard's per-mind page.
 */
let srv: Service;
let a: TestSdk;
let b: TestSdk;
let bAccount: string;

before(async () => {
  srv = await startService({ AUDIT_RETENTION_DAYS: '30' });
  a = srv.sdk();
  const made = await srv.admin.createAccount('audit-b@example.com', 'pro');
  bAccount = made.accountId;
  b = srv.sdk(made.apiKey);
});
after(() => srv?.close());

const rowsOf = (sdk: TestSdk, opts: Parameters<TestSdk['audit']['list']>[0] = {}) => sdk.audit.list(opts).all();

async function rawAppend(store: Store, accountId: string, at: string, id = crypto.randomUUID()): Promise<string> {
  await store.repos.accessLog.append([{ id, at, account_id: accountId, actor: 'system', action: 'test.row', mind_id: null, resource_id: null, ip: null }]);
  return id;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** Raw SQL against the service's database: the triggers, not the repository, must refuse. */
async function refused(store: Store, statement: ReturnType<typeof sql>): Promise<string> {
  try {
    await statement.execute(store.db);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

/** UPDATE refused; DELETE of a young row refused, of one past the retention allowed; the purge takes only old rows. */
async function appendOnly(store: Store, accountId: string): Promise<void> {
  const young = await rawAppend(store, accountId, daysAgo(20));
  const old = await rawAppend(store, accountId, daysAgo(40));
  assert.match(await refused(store, sql`update access_log set action = 'changed' where id = ${young}`), /append-only/);
  assert.match(await refused(store, sql`update access_log set ip = '10.0.0.1' where id = ${old}`), /append-only/, 'old rows cannot be changed either');
  assert.match(await refused(store, sql`delete from access_log where id = ${young}`), /cannot be deleted yet/);
  assert.match(await refused(store, sql`delete from access_log where account_id = ${accountId}`), /cannot be deleted yet/, 'a delete touching any young row fails whole');
  assert.equal((await store.repos.accessLog.page({ accountId }, null, 1000)).length >= 2, true);
  assert.equal(await refused(store, sql`delete from access_log where id = ${old}`), 'accepted', 'a row past AUDIT_RETENTION_DAYS (30) may go');
  await rawAppend(store, accountId, daysAgo(45));
  const ids = new Set((await store.repos.accessLog.page({ accountId }, null, 1000)).map((r) => r.id));
  assert.ok(ids.has(young));
}

describe('GET /audit', () => {
  it('answers the calling account only: two accounts never see each other’s rows, and another’s mindId is an empty page', async () => {
    const { mind } = await a.minds.create({ name: 'Audited Person' });
    await a.minds.get(mind.id);
    const { mind: bMind } = await b.minds.create({ name: 'B’s Person' });
    await b.minds.get(bMind.id);

    const aRows = await rowsOf(a);
    const bRows = await rowsOf(b);
    assert.ok(aRows.some((r) => r.mindId === mind.id && r.action === 'mind.read'));
    assert.ok(aRows.every((r) => r.mindId !== bMind.id));
    assert.ok(bRows.some((r) => r.mindId === bMind.id && r.action === 'mind.read'));
    assert.ok(bRows.every((r) => r.mindId !== mind.id));
    const theirs = await failure(b.audit.list({ mindId: mind.id }).first());
    assert.deepEqual([theirs.status, theirs.code], [404, 'MIND_NOT_FOUND'], 'another account’s mind: 404, as everywhere');
    assert.equal((await failure(a.audit.list({ mindId: crypto.randomUUID() }).first())).status, 404, 'an unknown mind too');
    assert.deepEqual(await rowsOf(a, { mindId: mind.id, to: '2000-01-01' }), [], 'a mind of the account: an empty window is an empty page');
    assert.ok(!JSON.stringify(bRows).includes(mind.id));
  });

  it('pages newest first through the Link header, keeping the filters; the SDK walks every page', async () => {
    const { mind } = await a.minds.create({ name: 'Paged Person' });
    for (let i = 0; i < 6; i++) await a.minds.get(mind.id);
    const first = await a.audit.list({ mindId: mind.id, limit: 3 }).first();
    assert.equal(first.entries.length, 3);
    const link = a.last?.headers.get('link') ?? '';
    assert.match(link, /rel="next"/);
    assert.match(link, new RegExp(`mindId=${mind.id}`), 'the next page keeps the mind filter');
    assert.match(link, /limit=3/);

    const all = await rowsOf(a, { mindId: mind.id, limit: 3 });
    assert.equal(all.length, 7, 'mind.create and six reads');
    assert.equal(new Set(all.map((r) => r.id)).size, 7);
    assert.deepEqual(all.map((r) => r.action).sort(), ['mind.create', ...Array(6).fill('mind.read')].sort());
    const times = all.map((r) => r.at);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    assert.deepEqual(all.slice(0, 3), first.entries);
    const pages: AuditEntry[][] = [];
    for await (const page of a.audit.list({ mindId: mind.id, limit: 3 }).pages()) pages.push(page);
    assert.deepEqual(pages.map((p) => p.length), [3, 3, 1]);
  });

  it('filters by from and to (dates and date-times, both included); a bad time, a reversed window or a bad cursor is a 400', async () => {
    const { mind } = await a.minds.create({ name: 'Windowed Person' });
    await a.minds.get(mind.id);
    const rows = await rowsOf(a, { mindId: mind.id });
    const at = rows[0]?.at ?? '';
    const day = at.slice(0, 10);
    assert.equal((await rowsOf(a, { mindId: mind.id, from: day, to: day })).length, rows.length, 'a date covers its whole day');
    assert.equal((await rowsOf(a, { mindId: mind.id, from: at, to: at })).length >= 1, true, 'both ends included');
    assert.deepEqual(await rowsOf(a, { mindId: mind.id, to: daysAgo(1) }), []);
    assert.deepEqual(await rowsOf(a, { mindId: mind.id, from: new Date(Date.now() + 3_600_000).toISOString() }), []);
    const shifted = new Date(Date.parse(at) + 2 * 3_600_000 + 1000).toISOString().replace('Z', '+02:00').replace(/\.\d+/, '');
    assert.ok((await rowsOf(a, { mindId: mind.id, to: shifted })).length >= 1, 'an offset is honoured');

    for (const q of [{ from: 'yesterday' }, { to: '2026-02-30' }, { from: '2026-01-01T25:00:00Z' }]) {
      const err = await failure(a.audit.list(q).first());
      assert.equal(err.status, 400, JSON.stringify(q));
      assert.equal(err.code, 'VALIDATION_FAILED');
    }
    const reversed = await failure(a.audit.list({ from: '2026-03-02', to: '2026-03-01' }).first());
    assert.deepEqual([reversed.status, reversed.code], [400, 'INVALID_RANGE']);
    const cursor = await failure(a.audit.list({ cursor: 'not-a-cursor' }).first());
    assert.deepEqual([cursor.status, cursor.code], [400, 'INVALID_CURSOR']);
  });
});

describe('what the log records', () => {
  it('a read is committed before its answer: when the row cannot be written, the content is withheld (503 AUDIT_UNAVAILABLE)', async () => {
    const { mind } = await a.minds.create({ name: 'Withheld Person' });
    const log = srv.ctx.services.accessLog;
    const record = log.record.bind(log);
    log.record = () => Promise.reject(new Error('disk full'));
    try {
      const err = await failure(a.minds.get(mind.id));
      assert.deepEqual([err.status, err.code], [503, 'AUDIT_UNAVAILABLE']);
      assert.ok(!JSON.stringify(err.body).includes('Withheld Person'), 'nothing of the mind in the answer');
    } finally {
      log.record = record;
    }
    assert.equal((await a.minds.get(mind.id)).name, 'Withheld Person');
  });

  it('appends made while an insert is in flight are written together by the next one, each resolved after its own row', async () => {
    const log = srv.ctx.services.accessLog;
    const before = log.inserts;
    const writes = Array.from({ length: 10 }, (_, i) => log.record([{ accountId: bAccount, actor: 'system', action: `batch.${i}`, mindId: null }]));
    await Promise.all(writes);
    assert.equal(log.inserts - before, 2, 'the first alone, the nine that came while it ran in one statement');
    const actions = (await srv.ctx.store.repos.accessLog.page({ accountId: bAccount }, null, 1000)).map((r) => r.action).filter((a) => a.startsWith('batch.'));
    assert.deepEqual(actions, Array.from({ length: 10 }, (_, i) => `batch.${9 - i}`), 'newest first, in the order recorded, even within one millisecond (time-ordered ids)');
  });

  it('consent changes, refused uses (403, as .denied) and deletion are recorded; the rows outlive the deleted mind', async () => {
    const mindId = await interviewMind(a, 'Consenting Person');
    await a.minds.setConsent(mindId, consentTo('simulate'));
    await a.account.setPrivacy({ requireConsent: true });
    try {
      const refusedPanel = await failure(a.panels.create({ mindIds: [mindId], questions: [{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }] }));
      assert.equal(refusedPanel.status, 403);
      // The same refusal over MCP (run_panel), and a streamed simulation.
      const mcp = await fetch(`${srv.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_panel', arguments: { mindIds: [mindId], questions: [{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }], wait: false } } }),
      });
      assert.match(await mcp.text(), /"isError":\s*true[\s\S]*403|403[\s\S]*"isError":\s*true/);
      const streamed = await fetch(`${srv.api}/simulate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mindId, scenario: { message: 'What do you do first?' }, stream: true }),
      });
      assert.match(await streamed.text(), /event: result/);
      await a.simulate({ mindId, scenario: { message: 'How do you start your day?' } });
    } finally {
      await a.account.setPrivacy({ requireConsent: false });
    }
    await a.minds.delete(mindId);
    const rows = await rowsOf(a, { mindId });
    const actions = rows.map((r) => r.action);
    for (const action of ['mind.create', 'snapshot.create', 'consent.change', 'panel.create.denied', 'simulate', 'mind.delete']) assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    assert.equal(actions.filter((x) => x === 'panel.create.denied').length, 2, 'REST and MCP');
    assert.equal(actions.filter((x) => x === 'simulate').length, 2, 'streamed and not');
    assert.equal(rows[0]?.action, 'mind.delete', 'the deletion is the newest row');
    assert.ok(rows.every((r) => r.actor.startsWith('key:') && r.ip === '127.0.0.1'));
    const raw = JSON.stringify(rows);
    assert.ok(!raw.includes('Consenting Person') && !raw.includes('start your day'), 'ids, never words');
  });

  it('a withdrawal of consent erases the mind, and its audit keeps every row, the withdrawal last', async () => {
    const { mind } = await a.minds.create({ name: 'Withdrawing Person' });
    await a.minds.get(mind.id);
    await a.minds.withdrawConsent(mind.id);
    assert.equal((await failure(a.minds.get(mind.id))).status, 410);
    const rows = await rowsOf(a, { mindId: mind.id });
    assert.deepEqual(rows.map((r) => r.action), ['consent.change', 'mind.read', 'mind.create']);
  });

  it('the service writes AUDIT_RETENTION_DAYS where the triggers read it', async () => {
    assert.equal(await srv.ctx.store.repos.settings.get(AUDIT_RETENTION_SETTING), '30');
  });
});

describe('append-only, in the database itself', () => {
  it('SQLite refuses UPDATE, and DELETE of rows younger than the retention; the purge deletes only older rows', async () => {
    await appendOnly(srv.ctx.store, bAccount);
    const old = await rawAppend(srv.ctx.store, bAccount, daysAgo(31));
    const young = await rawAppend(srv.ctx.store, bAccount, daysAgo(29));
    assert.ok((await srv.ctx.services.accessLog.purge()) >= 1);
    const ids = (await srv.ctx.store.repos.accessLog.page({ accountId: bAccount }, null, 1000)).map((r) => r.id);
    assert.ok(!ids.includes(old) && ids.includes(young));
  });

  it('a worker purges the rows past the retention when it starts (and every 6 hours after)', async () => {
    const old = await rawAppend(srv.ctx.store, bAccount, daysAgo(35));
    const young = await rawAppend(srv.ctx.store, bAccount, daysAgo(25));
    const second = await startService({ DATA_DIR: srv.dataDir, AUDIT_RETENTION_DAYS: '30' });
    try {
      const ids = async () => (await srv.ctx.store.repos.accessLog.page({ accountId: bAccount }, null, 1000)).map((r) => r.id);
      await waitUntil(async () => !(await ids()).includes(old), { what: 'the old row purged' });
      assert.ok((await ids()).includes(young), 'the young one stays');
    } finally {
      await second.close();
    }
  });

  describe('on PostgreSQL', { skip: PG_SKIP }, () => {
    let db: TestDatabase;
    let pg: Service;
    before(async () => {
      db = await createDatabase();
      pg = await startService({ DATABASE_URL: db.url, RUN_WORKER: 'false', AUDIT_RETENTION_DAYS: '30' });
    });
    after(async () => {
      await pg?.close();
      await db?.drop();
    });

    it('refuses UPDATE, TRUNCATE and DELETE of young rows; the purge deletes only older rows; two accounts stay apart', async () => {
      const other = await pg.admin.createAccount('pg-audit@example.com', 'pro');
      await appendOnly(pg.ctx.store, other.accountId);
      assert.match(await refused(pg.ctx.store, sql`truncate access_log`), /cannot be truncated/);
      const old = await rawAppend(pg.ctx.store, other.accountId, daysAgo(31));
      assert.ok((await pg.ctx.services.accessLog.purge()) >= 1);
      assert.ok(!(await pg.ctx.store.repos.accessLog.page({ accountId: other.accountId }, null, 1000)).some((r) => r.id === old));

      const { mind } = await pg.sdk().minds.create({ name: 'PG Person' });
      await pg.sdk().minds.get(mind.id);
      const mine = await pg.sdk().audit.list({ mindId: mind.id, limit: 1 }).all();
      assert.deepEqual(mine.map((r) => r.action), ['mind.read', 'mind.create']);
      assert.equal((await failure(pg.sdk(other.apiKey).audit.list({ mindId: mind.id }).first())).status, 404);
    });
  });
});

describe('the dashboard', () => {
  it('shows a mind’s access log, linked from the mind page, and 404s another account’s mind', async () => {
    const password = 'a long enough password';
    await srv.admin.setPassword(srv.ownerAccountId, password);
    const owner = await srv.ctx.store.repos.accounts.byId(srv.ownerAccountId);
    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.logIn(owner?.email ?? '', password)).status, 303);
    const { mind } = await a.minds.create({ name: 'Dashboard Person' });
    const page = await web.get(`/minds/${mind.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="/minds/${mind.id}/audit"`));

    const audit = await web.get(`/minds/${mind.id}/audit`);
    assert.equal(audit.status, 200);
    assert.match(audit.text, /data-testid="audit-rows"/);
    assert.match(audit.text, /<code>mind\.read<\/code>/);
    assert.match(audit.text, /<code>mind\.create<\/code>/);
    assert.match(audit.text, /Dashboard/, 'the dashboard read, by the session');
    assert.match(audit.text, /API key/, 'the creation, by the key');
    const empty = await web.get(`/minds/${mind.id}/audit?to=2000-01-01`);
    assert.match(empty.text, /data-testid="audit-empty"/);
    const { mind: bMind } = await b.minds.create({ name: 'Not yours' });
    assert.equal((await web.get(`/minds/${bMind.id}/audit`)).status, 404);
  });
});
