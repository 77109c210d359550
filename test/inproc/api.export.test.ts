/**
 * A mind's export (`GET /minds/{id}/export`, `sdk.minds.export`): one zip archive, unpacked here with
 * fflate (a zip reader independent of the writer, yazl), holding exactly the files its README.json
 * lists with the counts it says, and nothing of another mind or another account; CSV cells that
 * begin with a formula character written as text; long files read in pages; a mind without a
 * snapshot yet; another account's mind a 404 that says nothing more.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { blobOf, failure, interviewMind, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

let srv: Service;
let sdk: TestSdk;
let other: TestSdk;
/** Mind A (the one exported), mind B of the same account, mind C of another account. */
const ids = { a: '', b: '', c: '', snapshotA: '', simulationA: '', simulationB: '', panel: '' };
const vttA = teamsVtt(sampleInterview());
/** Mind B's words carry a token nobody else says. */
const vttB = teamsVtt(sampleInterview().map((t) => ({ ...t, text: t.text.replace(/coffee/g, 'xylophonist coffee') })));
let queries: string[] = [];

interface Unpacked {
  files: Record<string, Uint8Array>;
  readme: { format: string; mind: { id: string; name: string }; files: Array<{ name: string; description: string; format: string; count: number; unit: string }>; notIncluded: string[] };
  fileName: string | null;
  contentType: string;
}

async function exportOf(s: TestSdk, mindId: string): Promise<Unpacked> {
  const download = await s.minds.export(mindId);
  const files = unzipSync(await download.bytes());
  const readme = JSON.parse(strFromU8(files['README.json'] ?? new Uint8Array())) as Unpacked['readme'];
  return { files, readme, fileName: download.fileName, contentType: download.contentType };
}

const text = (u: Unpacked, name: string) => strFromU8(u.files[name] ?? assert.fail(`no ${name} in the archive`));
const json = <T = unknown>(u: Unpacked, name: string) => JSON.parse(text(u, name)) as T;
const csv = (u: Unpacked, name: string) => parseCsv(text(u, name), { columns: true }) as Array<Record<string, string>>;

before(async () => {
  srv = await startService({}, { onQuery: (q) => void queries.push(q) });
  sdk = srv.sdk();
  other = srv.sdk((await srv.admin.createAccount('export-other@example.com', 'standard')).apiKey);

  const { mind } = await sdk.minds.create({ name: '=HYPERLINK("http://evil.example")', email: 'sam@example.com', tags: ['Export'] });
  ids.a = mind.id;
  const started = await sdk.snapshots.create(ids.a, { file: blobOf(vttA), fileName: 'interview.vtt' });
  ids.snapshotA = started.mindAssessmentId;
  assert.equal((await waitFor(sdk, ids.a, ids.snapshotA)).status, 'completed');
  const { mind: b } = await sdk.minds.create('Other Person');
  ids.b = b.id;
  const sb = await sdk.snapshots.create(ids.b, { file: blobOf(vttB), fileName: 'b.vtt' });
  assert.equal((await waitFor(sdk, ids.b, sb.mindAssessmentId)).status, 'completed');
  ids.c = await interviewMind(other, 'Third Account Person');

  ids.simulationA = (await sdk.simulate({ mindId: ids.a, scenario: { message: 'How do you start your day?' } })).simulationId;
  const followUp = await sdk.simulate({ mindId: ids.a, scenario: { message: 'And after the run?' }, conversationId: ids.simulationA });
  assert.equal(followUp.simulationId, ids.simulationA);
  ids.simulationB = (await sdk.simulate({ mindId: ids.b, scenario: { message: 'What about coffee?' } })).simulationId;
  const panel = await sdk.panels.create({
    mindIds: [ids.a, ids.b],
    questions: [
      { id: 'remote', text: 'Do you prefer working remotely?', type: 'single', options: ['Yes', 'No'] },
      { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'open' },
    ],
  });
  ids.panel = (await sdk.panels.wait(panel.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 60_000 })).id;
});
after(() => srv?.close());

describe('GET /minds/{mindId}/export', () => {
  let u: Unpacked;
  before(async () => {
    u = await exportOf(sdk, ids.a);
  });

  it('is one zip with a safe file name, holding exactly the files README.json lists', () => {
    assert.equal(u.contentType, 'application/zip');
    assert.match(u.fileName ?? '', /^mindsim-export-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.zip$/);
    assert.equal(u.readme.format, 'mindsim-export/1');
    assert.deepEqual(u.readme.mind, { id: ids.a, name: '=HYPERLINK("http://evil.example")' });
    const listed = u.readme.files.map((f) => f.name).sort();
    assert.deepEqual(Object.keys(u.files).filter((n) => n !== 'README.json').sort(), listed);
    for (const f of u.readme.files) {
      assert.ok(f.description.length > 20, `${f.name} is described`);
      assert.ok(f.format.length > 0 && f.unit.length > 0);
    }
    assert.ok(u.readme.notIncluded.some((n) => /vectors/.test(n)), 'README says what is left out');
    for (const name of ['mind.json', 'consent.json', 'uploads.json', 'snapshots.json', 'profile.json', 'simulations.json', 'panel-answers.csv', 'access-log.csv']) {
      assert.ok(listed.includes(name), `${name} is in the export`);
    }
    for (const name of ['transcript.json', 'memories.csv', 'profile.json', 'psychometrics.json']) {
      assert.ok(listed.includes(`snapshots/${ids.snapshotA}/${name}`), `the snapshot's ${name} is in the export`);
    }
  });

  it('holds the original upload byte for byte, and each file holds the count README.json gives', () => {
    const uploads = json<Array<{ artifactId: string; file: string; sizeBytes: number }>>(u, 'uploads.json');
    assert.equal(uploads.length, 1);
    const upload = uploads[0];
    assert.ok(upload);
    assert.equal(strFromU8(u.files[upload.file] ?? new Uint8Array()), vttA);
    const count = (name: string) => u.readme.files.find((f) => f.name === name)?.count;
    assert.equal(count(upload.file), Buffer.byteLength(vttA));
    assert.equal(count('uploads.json'), 1);

    const snapshots = json<Array<{ id: string; status: string; file: string; memoryCount: number }>>(u, 'snapshots.json');
    assert.deepEqual(snapshots.map((s) => [s.id, s.status, s.file]), [[ids.snapshotA, 'completed', upload.file]]);
    const memories = csv(u, `snapshots/${ids.snapshotA}/memories.csv`);
    assert.equal(memories.length, snapshots[0]?.memoryCount);
    assert.equal(count(`snapshots/${ids.snapshotA}/memories.csv`), memories.length);
    assert.deepEqual(memories.map((m) => Number(m.seq)), [...memories.keys()].map((i) => Number(memories[0]?.seq) + i), 'in order');
    assert.ok(memories.some((m) => /long run before breakfast/.test(m.text ?? '')));
    const transcript = json<{ turns: Array<{ text: string }> }>(u, `snapshots/${ids.snapshotA}/transcript.json`);
    assert.equal(count(`snapshots/${ids.snapshotA}/transcript.json`), transcript.turns.length);
    assert.ok(transcript.turns.length >= 16);

    const simulations = json<Array<{ id: string; messages: Array<{ role: string; text: string }> }>>(u, 'simulations.json');
    assert.deepEqual(simulations.map((s) => s.id), [ids.simulationA]);
    assert.deepEqual(simulations[0]?.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    assert.equal(simulations[0]?.messages[0]?.text, 'How do you start your day?');
    assert.equal(count('simulations.json'), 1);

    const answers = csv(u, 'panel-answers.csv');
    assert.deepEqual(answers.map((a) => [a.panel_id, a.question_id]), [[ids.panel, 'remote'], [ids.panel, 'coffee']]);
    assert.equal(count('panel-answers.csv'), 2);

    const mind = json<{ id: string; email: string; tags: Array<{ name: string }> }>(u, 'mind.json');
    assert.equal(mind.id, ids.a);
    assert.equal(mind.email, 'sam@example.com');
    assert.deepEqual(mind.tags.map((t) => t.name), ['Export']);
    const consent = json<{ status: string }>(u, 'consent.json');
    assert.equal(consent.status, 'unknown');
    assert.equal(count('access-log.csv'), csv(u, 'access-log.csv').length);
  });

  it("holds the mind's access log, with the exports before it, and no row of another mind", async () => {
    const again = await exportOf(sdk, ids.a);
    const log = csv(again, 'access-log.csv');
    const actions = new Set(log.map((r) => r.action));
    for (const action of ['mind.create', 'snapshot.create', 'simulate', 'panel.create', 'mind.export']) assert.ok(actions.has(action), `${action} in ${[...actions].join(', ')}`);
    assert.ok(log.every((r) => r.mind_id === ids.a));
    assert.ok(log.some((r) => r.action === 'simulate' && r.resource_id === ids.simulationA));
  });

  it('writes a CSV cell that begins with a formula character as text', () => {
    const raw = text(u, 'panel-answers.csv');
    assert.ok(raw.includes(`"'=HYPERLINK(""http://evil.example"")"`), raw.split('\n')[1]);
    assert.equal(csv(u, 'panel-answers.csv')[0]?.mind_name, `'=HYPERLINK("http://evil.example")`);
  });

  it('holds nothing of another mind of the account', () => {
    const all = Object.entries(u.files).map(([name, bytes]) => [name, strFromU8(bytes)] as const);
    for (const [name, content] of all) {
      assert.ok(!content.includes(ids.b), `${name} names mind B`);
      assert.ok(!content.includes(ids.simulationB), `${name} names B's simulation`);
      assert.ok(!/xylophonist/.test(content), `${name} holds B's words`);
      assert.ok(!content.includes(ids.c), `${name} names another account's mind`);
      assert.ok(!/Other Person|Third Account Person/.test(content), `${name} names another mind`);
    }
  });

  it("another account's mind is a 404 like an unknown one, and its own export holds none of this account's", async () => {
    const err = await failure(other.minds.export(ids.a));
    assert.equal(err.status, 404);
    assert.equal(err.code, 'MIND_NOT_FOUND');
    const unknown = await failure(sdk.minds.export('00000000-0000-4000-8000-000000000000'));
    assert.deepEqual([unknown.status, unknown.code, unknown.message], [err.status, err.code, err.message]);
    const theirs = await exportOf(other, ids.c);
    for (const [name, bytes] of Object.entries(theirs.files)) {
      const content = strFromU8(bytes);
      for (const id of [ids.a, ids.b, ids.snapshotA, ids.simulationA, ids.panel]) assert.ok(!content.includes(id), `${name} of C's export names ${id}`);
    }
    assert.equal((await failure(sdk.minds.export('not-a-uuid'))).status, 400);
  });

  it('is served under both prefixes, the body streamed as application/zip', async () => {
    for (const prefix of ['/api/public/v1', '/api/mindsim']) {
      const res = await fetch(`${srv.baseUrl}${prefix}/minds/${ids.a}/export`, { headers: { authorization: `Bearer ${srv.apiKey}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="mindsim-export-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.zip"$/);
      assert.ok('README.json' in unzipSync(new Uint8Array(await res.arrayBuffer())));
    }
  });
});

describe('the export of a mind without a snapshot, and of a big one', () => {
  it('a new mind: every file listed is there, each empty list counted 0', async () => {
    const { mind } = await sdk.minds.create('Nobody Yet');
    const u = await exportOf(sdk, mind.id);
    assert.deepEqual(Object.keys(u.files).filter((n) => n !== 'README.json').sort(), u.readme.files.map((f) => f.name).sort());
    assert.deepEqual(json(u, 'snapshots.json'), []);
    assert.deepEqual(json(u, 'simulations.json'), []);
    assert.deepEqual(csv(u, 'panel-answers.csv'), []);
    assert.ok(!('profile.json' in u.files), 'no profile before a snapshot completes');
    for (const f of u.readme.files.filter((x) => ['snapshots.json', 'simulations.json', 'panel-answers.csv', 'uploads.json'].includes(x.name))) assert.equal(f.count, 0, f.name);
  });

  it('reads a long file a page at a time, in order (1,234 memories: three queries)', async () => {
    const { mind } = await sdk.minds.create('Many Memories');
    const started = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview().slice(0, 4))), fileName: 'short.vtt' });
    assert.equal((await waitFor(sdk, mind.id, started.mindAssessmentId)).status, 'completed');
    const memories = Array.from({ length: 1234 }, (_, i) => ({ seq: i, speaker: 'Sam Okafor', text: `Sentence number ${i}.`, start: i, end: i + 1, page: null, question: null }));
    await srv.ctx.store.repos.snapshots.replaceMemories(started.mindAssessmentId, mind.id, memories);
    queries = [];
    const u = await exportOf(sdk, mind.id);
    const rows = csv(u, `snapshots/${started.mindAssessmentId}/memories.csv`);
    assert.deepEqual(rows.map((r) => Number(r.seq)), memories.map((m) => m.seq));
    assert.equal(rows[1233]?.text, 'Sentence number 1233.');
    assert.equal(u.readme.files.find((f) => f.name.endsWith('memories.csv'))?.count, 1234);
    assert.equal(queries.filter((q) => /from "memories"/.test(q) && /"seq" > /.test(q)).length, 3);
  });
});

describe('the dashboard download', () => {
  it("the mind page links the same archive, streamed for the session's account only", async () => {
    const { email } = await srv.admin.setPassword(srv.ownerAccountId, 'a long enough password');
    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.logIn(email, 'a long enough password')).status, 303);
    const page = await web.get(`/minds/${ids.a}`);
    assert.match(page.text, new RegExp(`<a href="/minds/${ids.a}/export" download>`));
    const res = await fetch(`${srv.baseUrl}/minds/${ids.a}/export`, { headers: { cookie: web.cookieHeader() } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="mindsim-export-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const readme = JSON.parse(strFromU8(files['README.json'] ?? new Uint8Array())) as Unpacked['readme'];
    assert.deepEqual(Object.keys(files).filter((n) => n !== 'README.json').sort(), readme.files.map((f) => f.name).sort());
    assert.equal(readme.mind.id, ids.a);

    const stranger = new WebClient(srv.baseUrl);
    assert.equal((await stranger.signUp('export-stranger@example.com', 'another long password')).status, 303);
    const theirs = await stranger.get(`/minds/${ids.a}/export`);
    assert.equal(theirs.status, 404);
    assert.doesNotMatch(theirs.text, /HYPERLINK|PK/);
    const anonymous = await new WebClient(srv.baseUrl).get(`/minds/${ids.a}/export`);
    assert.ok([302, 303].includes(anonymous.status), String(anonymous.status));
    assert.match(anonymous.headers.get('location') ?? '', /^\/login\?next=/);
  });
});

describe('the export of a withdrawn mind', () => {
  it('answers 410 CONSENT_WITHDRAWN: nothing is left to export but the record of the withdrawal', async () => {
    const { mind } = await sdk.minds.create('Withdrawn Person');
    await sdk.minds.withdrawConsent(mind.id);
    const err = await failure(sdk.minds.export(mind.id));
    assert.equal(err.status, 410);
    assert.equal(err.code, 'CONSENT_WITHDRAWN');
  });
});

describe('the export on PostgreSQL', { skip: PG_SKIP }, () => {
  let pg: TestDatabase;
  let pgSrv: Service;
  before(async () => {
    pg = await createDatabase();
    pgSrv = await startService({ DATABASE_URL: pg.url });
  });
  after(async () => {
    await pgSrv?.close();
    await pg?.drop();
  });

  it('holds every file listed, the counts README.json gives, long files in pages, and nothing of another mind', async () => {
    const pgSdk = pgSrv.sdk();
    const a = await interviewMind(pgSdk, 'Sam Okafor');
    const b = await interviewMind(pgSdk, 'Other Person');
    const sim = (await pgSdk.simulate({ mindId: a, scenario: { message: 'Coffee?' } })).simulationId;
    await pgSdk.simulate({ mindId: b, scenario: { message: 'Coffee?' } });
    const panel = await pgSdk.panels.create({ mindIds: [a, b], questions: [{ id: 'remote', text: 'Do you prefer working remotely?', type: 'single', options: ['Yes', 'No'] }] });
    await pgSdk.panels.wait(panel.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 60_000 });
    const [snapshot] = (await pgSdk.snapshots.list(a).first()).snapshots;
    const snapshotId = snapshot?.id ?? '';
    const memories = Array.from({ length: 1100 }, (_, i) => ({ seq: i, speaker: 'Sam Okafor', text: `Sentence ${i}.`, start: i, end: i + 1, page: null, question: null }));
    await pgSrv.ctx.store.repos.snapshots.replaceMemories(snapshotId, a, memories);

    const u = await exportOf(pgSdk, a);
    assert.deepEqual(Object.keys(u.files).filter((n) => n !== 'README.json').sort(), u.readme.files.map((f) => f.name).sort());
    const count = (name: string) => u.readme.files.find((f) => f.name === name)?.count;
    assert.deepEqual(csv(u, `snapshots/${snapshotId}/memories.csv`).map((r) => Number(r.seq)), memories.map((m) => m.seq));
    assert.equal(count(`snapshots/${snapshotId}/memories.csv`), 1100);
    assert.deepEqual(json<Array<{ id: string }>>(u, 'simulations.json').map((s) => s.id), [sim]);
    assert.deepEqual(csv(u, 'panel-answers.csv').map((r) => [r.panel_id, r.question_id]), [[panel.panel.id, 'remote']]);
    for (const [name, bytes] of Object.entries(u.files)) assert.ok(!strFromU8(bytes).includes(b), `${name} names the other mind`);
  });
});
