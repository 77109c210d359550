/**
 * Snapshot management (issue 14): mindsetDate, the list envelope, details, deletion, digital twins,
 * links, and simulation by twin; on both prefixes, with a second account that sees nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProcessSnapshotJob } from '../../src/jobs/process-snapshot.ts';
import type { AnalysisResult, AnalysisTask } from '../../src/jobs/transcript-analysis.ts';
import { sqliteRowsNaming } from '../../testkit/erasure.ts';
import { client, fileForm, type Client } from '../../testkit/http.ts';
import { blobOf, failure, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { makePdf, sampleInterview, teamsVtt, type Turn } from '../../testkit/fixtures.ts';

let srv: Service;
let sdk: TestSdk;
let api: Client;
let ms: Client;
let other: { sdk: TestSdk; api: Client; ms: Client };

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  ms = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
  const b = await srv.admin.createAccount('snapshots-b@example.com', 'standard');
  other = { sdk: srv.sdk(b.apiKey), api: client(srv.api, b.apiKey), ms: client(`${srv.baseUrl}/api/mindsim`, b.apiKey) };
});
after(() => srv?.close());

const DANA = 'Dana Reyes';
const SAM = 'Sam Okafor';
/** A conversation about bees: nothing of it is in sampleInterview(). */
const BEES: Turn[] = [
  { speaker: DANA, text: 'Do you have a hobby outside of work?' },
  { speaker: SAM, text: 'I keep bees on the roof of my building. I have three hives and I harvest about twenty kilos of honey every August.' },
  { speaker: DANA, text: 'What is the hardest part of beekeeping?' },
  { speaker: SAM, text: 'Varroa mites are the hardest part of beekeeping. I treat the hives with oxalic acid every winter, and I lost one colony anyway.' },
  { speaker: DANA, text: 'Would you recommend beekeeping to a friend?' },
  { speaker: SAM, text: 'Only to a patient friend. Bees taught me patience, because you cannot rush a colony and the honey comes when it comes.' },
];
const BEE_QUESTION = 'Tell me about your bees, your hives and the honey you harvest.';
const BEE_WORDS = /\b(bees?|hives?|honey|beekeeping|colony|varroa)\b/i;
const ZERO = '00000000-0000-4000-8000-000000000000';

async function mindWith(...files: Array<{ turns: Turn[]; twin?: string; date?: string }>) {
  const { mind, digitalTwin } = await sdk.minds.create(SAM);
  const ids: string[] = [];
  for (const [i, f] of files.entries()) {
    const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(f.turns)), fileName: `t${i}.vtt`, digitalTwinId: f.twin, mindsetDate: f.date });
    ids.push(r.mindAssessmentId);
  }
  for (const id of ids) assert.equal((await waitFor(sdk, mind.id, id)).status, 'completed');
  return { mindId: mind.id, defaultTwinId: digitalTwin.id, ids };
}

const status = (call: Promise<unknown>) => failure(call).then((e) => e.status);

/**
 * `table.column` of every value in the service's database that contains one of these strings, the
 * access log aside: it keeps its rows (ids, never words) after an erasure by design (issue 25).
 */
const rowsNaming = (needles: string[]) => sqliteRowsNaming(srv.dataDir, needles, new Set(['access_log']));

describe('mindsetDate', () => {
  it('is taken from the form (file or artifactId), defaults to the upload day, and is on status, list and details', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const given = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'a.vtt', mindsetDate: '2023-05-04' });
    const plain = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'b.vtt' });
    const up = await sdk.uploads.upload(mind.id, blobOf(teamsVtt(BEES)), { fileName: 'c.vtt' });
    const viaMs = await ms.post(`/minds/${mind.id}/snapshots`, (() => {
      const f = new FormData();
      f.append('artifactId', up.artifactId);
      f.append('mindsetDate', '2021-12-31');
      return f;
    })());
    assert.equal(viaMs.status, 200, JSON.stringify(viaMs.body));
    const s1 = await sdk.snapshots.status(mind.id, given.mindAssessmentId);
    assert.equal(s1.mindsetDate, '2023-05-04');
    const s2 = await sdk.snapshots.status(mind.id, plain.mindAssessmentId);
    assert.equal(s2.mindsetDate, s2.createdAt.slice(0, 10));
    const listed = await sdk.snapshots.list(mind.id).all();
    assert.deepEqual(
      Object.fromEntries(listed.map((s) => [s.id, s.mindsetDate])),
      { [given.mindAssessmentId]: '2023-05-04', [plain.mindAssessmentId]: s2.mindsetDate, [viaMs.body.mindAssessmentId]: '2021-12-31' },
    );
    assert.equal((await sdk.snapshots.get(mind.id, viaMs.body.mindAssessmentId)).mindsetDate, '2021-12-31');
  });

  it('answers 400 for a date that is malformed, impossible, too old or in the future, on both prefixes', async () => {
    const { mind } = await sdk.minds.create(SAM);
    for (const [c, date] of [[api, '2023-02-30'], [ms, '04/05/2023'], [api, '1899-12-31'], [ms, '2999-01-01'], [api, '2023-5-4']] as const) {
      const r = await c.post(`/minds/${mind.id}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'a.vtt', 'text/vtt', { mindsetDate: date }));
      assert.equal(r.status, 400, `${date}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.match(JSON.stringify(r.body.details.fields), /mindsetDate/);
    }
    assert.equal((await sdk.snapshots.list(mind.id).first()).count, 0, 'no snapshot was made');
  });
});

describe('GET /minds/{id}/snapshots and the signed URL', () => {
  it('answers {snapshots, count}: a page with the Link header, and the total of the mind', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'a.vtt' })).mindAssessmentId);
    for (const c of [api, ms]) {
      const first = await c.get(`/minds/${mind.id}/snapshots?limit=2`);
      assert.equal(first.status, 200);
      assert.deepEqual(Object.keys(first.body).sort(), ['count', 'snapshots']);
      assert.equal(first.body.count, 3);
      assert.deepEqual(first.body.snapshots.map((s: { id: string }) => s.id), [ids[2], ids[1]]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
      assert.ok(next.includes(c === ms ? '/api/mindsim/' : '/api/public/v1/'), next);
      const second = await fetch(next, { headers: { authorization: `Bearer ${srv.apiKey}` } }).then((r) => r.json() as Promise<{ snapshots: Array<{ id: string }>; count: number }>);
      assert.deepEqual(second.snapshots.map((s) => s.id), [ids[0]]);
      assert.equal(second.count, 3);
    }
    assert.deepEqual((await sdk.snapshots.list(mind.id, { limit: 1 }).all()).map((s) => s.id), [...ids].reverse());
    assert.equal((await sdk.snapshots.list(mind.id).first()).count, 3);
  });

  it('signed-url answers the contentType to upload with: the one asked for, else from the extension', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const cases: Array<[Client, string, string]> = [
      [api, '?contentType=text%2Fplain', 'text/plain'],
      [ms, '?fileName=talk.vtt', 'text/vtt'],
      [api, '?fileName=talk.PDF', 'application/pdf'],
      [ms, '?fileName=talk.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [api, '?fileName=talk.txt', 'application/octet-stream'],
      [ms, '', 'application/octet-stream'],
      [api, '?fileName=a.vtt&contentType=application%2Fpdf', 'application/pdf'],
    ];
    for (const [c, q, type] of cases) {
      const r = await c.get(`/minds/${mind.id}/signed-url${q}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.contentType, type, q);
    }
  });
});

describe('snapshot details', () => {
  it('carries updatedAt, counts, the parsed turns and psychometrics; each part can be left out', async () => {
    const { mindId, ids } = await mindWith({ turns: sampleInterview() });
    const id = ids[0] ?? '';
    const d = await sdk.snapshots.get(mindId, id);
    assert.equal(d.id, id);
    assert.equal(d.status, 'completed');
    assert.ok(d.updatedAt >= d.createdAt);
    assert.ok(d.psychometricCount !== null && d.psychometricCount >= 5);
    assert.ok(d.keyTopicCount !== null && d.keyTopicCount > 0);
    assert.ok(d.findingCount !== null && d.findingCount > 0);
    assert.equal(d.psychometrics?.snapshotIds[0], id);
    const turns = d.transcripts ?? [];
    assert.equal(turns.length, sampleInterview().length, 'one turn per speaker change');
    assert.equal(d.transcriptTruncated, false);
    for (const [i, t] of turns.entries()) {
      assert.equal(t.speaker, sampleInterview()[i]?.speaker);
      assert.equal(t.isPerson, t.speaker === SAM);
      assert.equal(t.text, sampleInterview()[i]?.text);
      assert.ok(typeof t.start === 'number' && typeof t.end === 'number' && t.end > t.start);
    }
    const bare = await ms.get(`/minds/${mindId}/snapshots/${id}?includeTranscript=false&includePsychometrics=0`);
    assert.equal(bare.status, 200);
    assert.equal(bare.body.transcripts, null);
    assert.equal(bare.body.psychometrics, null);
    assert.equal(bare.body.psychometricCount, d.psychometricCount, 'the counts stay');
    assert.equal((await api.get(`/minds/${mindId}/snapshots/${id}?includeTranscript=yes`)).status, 400);
    const st = await api.get(`/minds/${mindId}/snapshots/${id}/status`);
    assert.equal(st.body.mindsetDate, d.mindsetDate);
  });

  it('PDF turns carry their page; a failed snapshot has no counts, turns or psychometrics', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const pdf = await sdk.snapshots.create(mind.id, { file: blobOf(await makePdf(sampleInterview(), { qa: false })), fileName: 'a.pdf' });
    const bad = await sdk.snapshots.create(mind.id, { file: blobOf('WEBVTT\n\n00:00.000 --> 00:01.000\n\n'), fileName: 'empty.vtt' });
    assert.equal((await waitFor(sdk, mind.id, pdf.mindAssessmentId)).status, 'completed');
    assert.equal((await waitFor(sdk, mind.id, bad.mindAssessmentId)).status, 'failed');
    const turns = (await sdk.snapshots.get(mind.id, pdf.mindAssessmentId)).transcripts ?? [];
    assert.ok(turns.length > 0 && turns.every((t) => typeof t.page === 'number' && t.page >= 1 && t.start === undefined));
    assert.ok(turns.some((t) => t.isPerson) && turns.some((t) => !t.isPerson));
    const failed = await sdk.snapshots.get(mind.id, bad.mindAssessmentId);
    assert.equal(failed.status, 'failed');
    assert.deepEqual([failed.psychometricCount, failed.keyTopicCount, failed.findingCount, failed.transcripts, failed.psychometrics], [null, null, null, null, null]);
  });
});

describe('DELETE /minds/{id}/snapshots/{sid}', () => {
  it('removes the snapshot, its memories and file: the mind answers without it, and differently where it held the only passage', async () => {
    const canary = 'zqbeecanary';
    const beesTalk = [...BEES, { speaker: DANA, text: 'Does the queen have a name?' }, { speaker: SAM, text: `I call the queen of my oldest hive ${canary}, after my grandmother.` }];
    const { mindId, ids } = await mindWith({ turns: sampleInterview() }, { turns: beesTalk });
    const [talk = '', bees = ''] = ids;
    const before = await sdk.simulate({ mindId, scenario: { message: BEE_QUESTION } });
    assert.ok(before.evidence.some((e) => e.snapshotId === bees), 'the bees snapshot is cited');
    assert.match(before.message, BEE_WORDS);
    const artifactId = (await sdk.snapshots.status(mindId, bees)).artifactId;
    const blobKey = (await srv.ctx.store.repos.artifacts.byId(artifactId))?.blob_key ?? '';

    const r = await ms.del(`/minds/${mindId}/snapshots/${bees}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { message: 'Snapshot deleted successfully', snapshotId: bees });

    assert.equal(await status(sdk.snapshots.status(mindId, bees)), 404);
    assert.equal(await status(sdk.snapshots.get(mindId, bees)), 404);
    assert.equal(await status(sdk.snapshots.delete(mindId, bees)), 404, 'deleting again is 404');
    assert.deepEqual((await sdk.snapshots.list(mindId).all()).map((s) => s.id), [talk]);
    assert.equal((await sdk.snapshots.list(mindId).first()).count, 1);
    const after = await sdk.simulate({ mindId, scenario: { message: BEE_QUESTION } });
    assert.deepEqual(after.snapshotIds, [talk]);
    assert.ok(after.evidence.every((e) => e.snapshotId === talk), 'the deleted snapshot is never cited');
    assert.notEqual(after.message, before.message);
    assert.doesNotMatch(after.message, BEE_WORDS);
    const profile = await sdk.minds.profile(mindId);
    assert.deepEqual(profile.snapshotIds, [talk]);
    assert.ok(!JSON.stringify(profile).match(/beekeeping|varroa/i), 'the profile is re-merged without it');
    assert.equal((await srv.ctx.store.repos.snapshots.memoriesOf([bees])).length, 0);
    assert.equal(await srv.ctx.store.repos.artifacts.byId(artifactId), undefined, 'its artifact is removed');
    await assert.rejects(srv.ctx.blobs.get(blobKey), 'its file is deleted');
    assert.deepEqual(rowsNaming([bees, artifactId, canary]), [], 'no row names the snapshot, its artifact or its words');
  });

  it('keeps an artifact another snapshot was made from', async () => {
    const { mind } = await sdk.minds.create(SAM);
    const up = await sdk.uploads.upload(mind.id, blobOf(teamsVtt(sampleInterview())), { fileName: 'shared.vtt' });
    const a = await sdk.snapshots.create(mind.id, { artifactId: up.artifactId });
    const b = await sdk.snapshots.create(mind.id, { artifactId: up.artifactId, speaker: DANA });
    await waitFor(sdk, mind.id, a.mindAssessmentId);
    await waitFor(sdk, mind.id, b.mindAssessmentId);
    await sdk.snapshots.delete(mind.id, a.mindAssessmentId);
    assert.ok(await srv.ctx.store.repos.artifacts.byId(up.artifactId), 'kept for the other snapshot');
    await sdk.snapshots.delete(mind.id, b.mindAssessmentId);
    assert.equal(await srv.ctx.store.repos.artifacts.byId(up.artifactId), undefined);
  });

  it('a snapshot deleted while its job runs is not resurrected, and the job ends quietly', async () => {
    // A service without a worker: the job runs below, under the test's control.
    const quiet = await startService({ RUN_WORKER: 'false' });
    try {
      const { store, blobs, services } = quiet.ctx;
      const auth = { accountId: quiet.ownerAccountId, tier: 'pro' as const, apiKeyId: null };
      const mind = (await services.minds.create(auth, SAM)).mind;
      const create = async () => (await services.snapshots.createFromFile(auth, mind.id, { bytes: Buffer.from(teamsVtt(sampleInterview())) }, {})).mindAssessmentId;
      const id = await create();
      const analysis = await import('../../src/jobs/transcript-analysis.ts');
      const real = analysis.default;
      const deleting = async (task: AnalysisTask): Promise<AnalysisResult> => {
        const result = await real(task);
        await services.snapshots.delete(auth, mind.id, id); // deleted mid-processing
        return result;
      };
      const job = new ProcessSnapshotJob(store, blobs, { now: () => new Date(), newId: () => crypto.randomUUID(), randomBytes: () => Buffer.alloc(0) }, quiet.ctx.log, { analyse: deleting, embed: (texts) => analysis.embed({ texts }), selfCheck: (memories, passages) => analysis.selfCheck({ memories, passages }) });
      await job.run({ snapshotId: id });
      assert.equal(await store.repos.snapshots.byId(id), undefined, 'not resurrected');
      assert.equal((await store.repos.snapshots.memoriesOf([id])).length, 0);
      assert.equal(await store.repos.transcripts.of(id), undefined);
      assert.equal(await store.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined, 'its job is gone');
      await job.run({ snapshotId: id }); // a redelivery finds nothing to do
      await job.exhausted({ snapshotId: id }, 'boom');
      assert.equal(await store.repos.snapshots.byId(id), undefined);

      // Claimed by a worker, then deleted with its file before the worker read it: the job stops quietly.
      const claimed = await create();
      await store.repos.snapshots.start(claimed, new Date().toISOString());
      await services.snapshots.delete(auth, mind.id, claimed);
      await job.run({ snapshotId: claimed });
      assert.equal(await store.repos.snapshots.byId(claimed), undefined);
      assert.equal((await services.snapshots.list(auth, mind.id, 10)).count, 0);
    } finally {
      await quiet.close();
    }
  });
});

describe('digital twins', () => {
  it('lists the default twin, adds and renames twins; snapshots without a twin go to the default one', async () => {
    const { mind, digitalTwin } = await sdk.minds.create(SAM);
    assert.deepEqual((await sdk.twins.list(mind.id)).digitalTwins.map((t) => [t.id, t.isDefault]), [[digitalTwin.id, true]]);
    assert.equal(digitalTwin.isDefault, true);
    const created = await ms.post(`/minds/${mind.id}/digital-twins`, { name: 'Sam at work' });
    assert.equal(created.status, 200);
    const twin = created.body.digitalTwin;
    assert.deepEqual([twin.name, twin.isDefault, twin.mindId], ['Sam at work', false, mind.id]);
    const renamed = await ms.patch(`/minds/${mind.id}/digital-twins/${twin.id}`, { name: 'Sam on call' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.digitalTwin.name, 'Sam on call');
    assert.ok(renamed.body.digitalTwin.updatedAt >= twin.updatedAt);
    assert.equal((await sdk.twins.rename(mind.id, digitalTwin.id, 'Everyday Sam')).digitalTwin.isDefault, true);
    const listed = (await ms.get(`/minds/${mind.id}/digital-twins`)).body.digitalTwins;
    assert.deepEqual(listed.map((t: { name: string }) => t.name), ['Everyday Sam', 'Sam on call']);
    assert.deepEqual((await sdk.minds.get(mind.id)).digitalTwins.map((t) => t.id), [digitalTwin.id, twin.id]);

    const s = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'a.vtt' });
    assert.equal((await sdk.snapshots.status(mind.id, s.mindAssessmentId)).digitalTwinId, digitalTwin.id);

    for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }, { name: 42 }]) {
      assert.equal((await api.post(`/minds/${mind.id}/digital-twins`, body)).status, 400, JSON.stringify(body));
      assert.equal((await api.patch(`/minds/${mind.id}/digital-twins/${twin.id}`, body)).status, 400);
    }
    const otherMind = (await sdk.minds.create('Someone else')).mind.id;
    assert.equal((await api.patch(`/minds/${otherMind}/digital-twins/${twin.id}`, { name: 'moved' })).status, 404, "another mind's twin");
    assert.equal((await api.patch(`/minds/${mind.id}/digital-twins/${ZERO}`, { name: 'x' })).status, 404);
    assert.equal((await api.get(`/minds/${ZERO}/digital-twins`)).status, 404);
    assert.equal((await api.patch(`/minds/${mind.id}/digital-twins/not-a-uuid`, { name: 'x' })).status, 400);
  });

  it('links and unlinks snapshots (the answer holds the snapshot in an array); only twins of the same mind', async () => {
    const { mindId, defaultTwinId, ids } = await mindWith({ turns: sampleInterview() });
    const id = ids[0] ?? '';
    const twin = (await sdk.twins.create(mindId, 'Second')).digitalTwin;
    const linked = await ms.post(`/minds/${mindId}/snapshots/${id}/link`, { digitalTwinId: twin.id });
    assert.equal(linked.status, 200);
    assert.equal(linked.body.message, 'Snapshot linked successfully');
    assert.equal(linked.body.snapshot.length, 1);
    assert.deepEqual([linked.body.snapshot[0].id, linked.body.snapshot[0].digitalTwinId], [id, twin.id]);
    assert.equal((await sdk.snapshots.status(mindId, id)).digitalTwinId, twin.id, 'the status cache follows the link');

    const unlinked = await ms.post(`/minds/${mindId}/snapshots/${id}/unlink`);
    assert.equal(unlinked.status, 200);
    assert.deepEqual([unlinked.body.message, unlinked.body.snapshot[0].id, unlinked.body.snapshot[0].digitalTwinId], ['Snapshot unlinked successfully', id, null]);
    assert.equal((await sdk.snapshots.get(mindId, id)).digitalTwinId, null);
    assert.equal((await failure(sdk.simulate({ mindId, scenario: { message: 'Coffee?' } }))).code, 'SNAPSHOT_NOT_READY', 'an unlinked snapshot is never used');
    assert.equal((await sdk.snapshots.link(mindId, id, defaultTwinId)).snapshot[0]?.digitalTwinId, defaultTwinId);

    const elsewhere = (await sdk.minds.create('Elsewhere')).digitalTwin.id;
    assert.equal((await api.post(`/minds/${mindId}/snapshots/${id}/link`, { digitalTwinId: elsewhere })).status, 404);
    assert.equal((await api.post(`/minds/${mindId}/snapshots/${id}/link`, {})).status, 400);
    assert.equal((await api.post(`/minds/${mindId}/snapshots/${id}/link`, { digitalTwinId: 'nope' })).status, 400);
    assert.equal((await api.post(`/minds/${mindId}/snapshots/${ZERO}/link`, { digitalTwinId: twin.id })).status, 404);
    assert.equal((await api.post(`/minds/${mindId}/snapshots/${ZERO}/unlink`)).status, 404);
    assert.equal((await sdk.snapshots.status(mindId, id)).digitalTwinId, defaultTwinId, 'failed links change nothing');
  });

  it('POST /simulate with digitalTwinId draws on that twin’s snapshots only', async () => {
    const { mind, digitalTwin } = await sdk.minds.create(SAM);
    const hobby = (await sdk.twins.create(mind.id, 'Sam at home')).digitalTwin;
    const empty = (await sdk.twins.create(mind.id, 'Sam, nothing yet')).digitalTwin;
    const talk = (await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'talk.vtt' })).mindAssessmentId;
    const bees = (await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(BEES)), fileName: 'bees.vtt', digitalTwinId: hobby.id })).mindAssessmentId;
    await waitFor(sdk, mind.id, talk);
    await waitFor(sdk, mind.id, bees);

    const work = await sdk.simulate({ mindId: mind.id, digitalTwinId: digitalTwin.id, scenario: { message: BEE_QUESTION } });
    const home = (await ms.post('/simulate', { mindId: mind.id, digitalTwinId: hobby.id, scenario: { message: BEE_QUESTION } })).body;
    const both = await sdk.simulate({ mindId: mind.id, scenario: { message: BEE_QUESTION } });
    assert.deepEqual(work.snapshotIds, [talk]);
    assert.deepEqual(home.snapshotIds, [bees]);
    assert.deepEqual([...both.snapshotIds].sort(), [talk, bees].sort());
    assert.ok(work.evidence.every((e) => e.snapshotId === talk));
    assert.ok(home.evidence.length > 0 && home.evidence.every((e: { snapshotId: string }) => e.snapshotId === bees));
    assert.match(home.message, BEE_WORDS);
    assert.doesNotMatch(work.message, BEE_WORDS);
    const running = 'How do you start your working day?';
    const day = await sdk.simulate({ mindId: mind.id, digitalTwinId: digitalTwin.id, scenario: { message: running } });
    assert.ok(day.evidence.length > 0 && day.evidence.every((e) => e.snapshotId === talk), day.message);

    const nothing = await failure(sdk.simulate({ mindId: mind.id, digitalTwinId: empty.id, scenario: { message: running } }));
    assert.deepEqual([nothing.status, nothing.code], [409, 'SNAPSHOT_NOT_READY']);
    assert.equal((await failure(sdk.simulate({ mindId: mind.id, digitalTwinId: ZERO, scenario: { message: running } }))).status, 404);
    const foreignTwin = (await sdk.minds.create('Another')).digitalTwin.id;
    assert.equal((await failure(sdk.simulate({ mindId: mind.id, digitalTwinId: foreignTwin, scenario: { message: running } }))).status, 404);
    assert.equal((await api.post('/simulate', { mindId: mind.id, digitalTwinId: 'x', scenario: { message: running } })).status, 400);

    await sdk.snapshots.unlink(mind.id, bees);
    assert.deepEqual((await sdk.simulate({ mindId: mind.id, scenario: { message: BEE_QUESTION } })).snapshotIds, [talk], 'unlinked: never used');
    assert.equal((await failure(sdk.simulate({ mindId: mind.id, digitalTwinId: hobby.id, scenario: { message: running } }))).status, 409);
  });
});

describe('another account', () => {
  it('gets 404 for every snapshot and twin route of this account, on both prefixes, and changes nothing', async () => {
    const { mindId, defaultTwinId, ids } = await mindWith({ turns: sampleInterview() });
    const id = ids[0] ?? '';
    const theirs = await other.sdk.minds.create('Theirs');
    for (const c of [other.api, other.ms]) {
      for (const r of [
        await c.get(`/minds/${mindId}/snapshots`),
        await c.get(`/minds/${mindId}/snapshots/${id}`),
        await c.del(`/minds/${mindId}/snapshots/${id}`),
        await c.post(`/minds/${mindId}/snapshots/${id}/link`, { digitalTwinId: defaultTwinId }),
        await c.post(`/minds/${mindId}/snapshots/${id}/unlink`),
        await c.get(`/minds/${mindId}/digital-twins`),
        await c.post(`/minds/${mindId}/digital-twins`, { name: 'Mine now' }),
        await c.patch(`/minds/${mindId}/digital-twins/${defaultTwinId}`, { name: 'Mine now' }),
        // Their own mind with this account's inner ids.
        await c.get(`/minds/${theirs.mind.id}/snapshots/${id}`),
        await c.del(`/minds/${theirs.mind.id}/snapshots/${id}`),
        await c.post(`/minds/${theirs.mind.id}/snapshots/${id}/unlink`),
        await c.patch(`/minds/${theirs.mind.id}/digital-twins/${defaultTwinId}`, { name: 'Mine now' }),
        await c.post('/simulate', { mindId: theirs.mind.id, digitalTwinId: defaultTwinId, scenario: { message: 'Hi?' } }),
        await c.post('/simulate', { mindId, digitalTwinId: defaultTwinId, scenario: { message: 'Hi?' } }),
      ]) {
        assert.equal(r.status, 404, JSON.stringify(r.body));
        assert.ok(!JSON.stringify(r.body).includes(id));
      }
      assert.equal((await c.post(`/minds/${theirs.mind.id}/snapshots/${id}/link`, { digitalTwinId: theirs.digitalTwin.id })).status, 404);
    }
    const d = await sdk.snapshots.get(mindId, id);
    assert.equal(d.digitalTwinId, defaultTwinId);
    assert.deepEqual((await sdk.twins.list(mindId)).digitalTwins.map((t) => t.name), ['Default']);
  });
});
