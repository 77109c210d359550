import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, rawRequest, type Client } from '../../testkit/http.ts';
import { blobOf, failure, statusOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { makeDocx, makePdf, monologueVtt, parenVtt, sampleInterview, teamsVtt, zoomVtt } from '../../testkit/fixtures.ts';

/** Snapshots and simulation through the typed SDK; raw multipart for the bodies it would never send. */
let srv: Service;
let sdk: TestSdk;
let api: Client;

before(async () => {
  srv = await startService({ LOG_LEVEL: 'debug' });
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
});
after(() => srv?.close());

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const newMind = (name = 'Sam Okafor') => sdk.minds.create(name);

async function snapshotOf(bytes: Buffer | string, fileName: string, type?: string) {
  const { mind, digitalTwin } = await newMind();
  const r = await sdk.snapshots.create(mind.id, { file: blobOf(bytes, type), fileName, digitalTwinId: digitalTwin.id });
  return { mindId: mind.id, id: r.mindAssessmentId, status: await waitFor(sdk, mind.id, r.mindAssessmentId) };
}

const simulate = (mindId: string, message: string) => sdk.simulate({ mindId, scenario: { message } });

describe('direct file snapshots in every format', () => {
  const interview = sampleInterview();
  const interviewerText = new Set(interview.filter((t) => t.speaker !== 'Sam Okafor').map((t) => t.text));
  const cases: Array<[string, () => Promise<Buffer | string>, string, string?]> = [
    ['Teams VTT', async () => teamsVtt(interview), 'teams.vtt', 'text/vtt'],
    ['Zoom VTT', async () => zoomVtt(interview), 'zoom.vtt', 'application/octet-stream'],
    ['(Name) VTT', async () => parenVtt(interview), 'paren.vtt', 'application/pdf'],
    ['DOCX', () => makeDocx(interview), 'talk.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['PDF', () => makePdf(interview, { qa: false }), 'talk.pdf', 'application/pdf'],
    ['PDF Q/A', () => makePdf(interview, { qa: true }), 'qa.pdf', 'text/plain'],
  ];
  for (const [label, make, name, type] of cases) {
    it(`${label}: completes, and simulation answers from the person's own words`, async () => {
      const { mindId, id, status } = await snapshotOf(await make(), name, type);
      assert.equal(status.status, 'completed', JSON.stringify(status));
      assert.equal(status.id, id);
      assert.equal(status.mindId, mindId);
      assert.match(status.createdAt, ISO_Z);
      assert.match(status.startedAt ?? '', ISO_Z);
      assert.match(status.completedAt ?? '', ISO_Z);
      assert.equal(status.error, null);
      const sim = await simulate(mindId, 'How do you feel about working remotely?');
      assert.ok(sim.evidence.length > 0);
      for (const e of sim.evidence) {
        assert.ok(![...interviewerText].some((q) => q.includes(e.text)), `evidence is not the interviewer's: ${e.text}`);
      }
      assert.deepEqual(sim.snapshotIds, [id]);
    });
  }

  it('a monologue VTT with no speakers is all the person\'s', async () => {
    const { mindId, status } = await snapshotOf(
      monologueVtt(['I have always believed that small teams ship better software.', 'Remote work gave me my mornings back.']),
      'talk.vtt',
    );
    assert.equal(status.status, 'completed');
    const sim = await simulate(mindId, 'What do you think about small teams?');
    assert.match(sim.evidence.map((e) => e.text).join(' '), /small teams/);
  });
});

describe('snapshot request errors', () => {
  it('400 unsupported_file_type for a direct file that is not a transcript, whatever its name and type', async () => {
    const { mind } = await newMind();
    for (const [bytes, name, type] of [
      ['just some text', 'notes.vtt', 'text/vtt'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), 'x.pdf', 'application/pdf'],
      ['', 'empty.vtt', 'text/vtt'],
    ] as const) {
      const r = await failure(sdk.snapshots.create(mind.id, { file: blobOf(bytes, type), fileName: name }));
      assert.equal(r.status, 400);
      assert.equal(r.code, 'UNSUPPORTED_FILE_TYPE');
    }
  });

  it('413 for a direct file over 4 MB', async () => {
    const { mind } = await newMind();
    const big = Buffer.concat([Buffer.from('WEBVTT\n\n'), Buffer.alloc(4 * 1024 * 1024 + 10, 0x61)]);
    const boundary = '----mindsimtest';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.vtt"\r\nContent-Type: text/vtt\r\n\r\n`),
      big,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await rawRequest(`${srv.api}/minds/${mind.id}/snapshots`, 'POST', body, {
      authorization: `Bearer ${srv.apiKey}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    assert.equal(r.status, 413);
    assert.equal(JSON.parse(r.text).code, 'PAYLOAD_TOO_LARGE');
  });

  it('404 for an unknown mind or twin; 415/400 for bodies that are not multipart', async () => {
    const vtt = teamsVtt(sampleInterview());
    assert.equal(await statusOf(sdk.snapshots.create('00000000-0000-4000-8000-000000000000', { file: blobOf(vtt), fileName: 'a.vtt' })), 404);
    const { mind } = await newMind();
    const twin = sdk.snapshots.create(mind.id, { file: blobOf(vtt, 'text/vtt'), fileName: 'a.vtt', digitalTwinId: '00000000-0000-4000-8000-000000000000' });
    assert.equal(await statusOf(twin), 404);
    assert.equal((await api.call('POST', `/minds/${mind.id}/snapshots`, 'x', { 'content-type': 'text/plain' })).status, 415);
    assert.equal((await api.post(`/minds/${mind.id}/snapshots`, {})).status, 400);
    const garbage = await api.call('POST', `/minds/${mind.id}/snapshots`, '--zzz\r\nnonsense', {
      'content-type': 'multipart/form-data; boundary=zzz',
    });
    assert.ok(garbage.status === 400, `malformed multipart: ${garbage.status}`);
  });

  it('lists snapshots newest first; status of an unknown snapshot is 404', async () => {
    const { mind } = await newMind();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'a.vtt' })).mindAssessmentId);
    }
    const list = await api.get(`/minds/${mind.id}/snapshots`);
    assert.ok(Array.isArray(list.body.snapshots), 'the snapshots, in an envelope');
    assert.equal(list.body.count, 3);
    assert.deepEqual((await sdk.snapshots.list(mind.id).all()).map((s) => s.id), [...ids].reverse());
    assert.equal(await statusOf(sdk.snapshots.status(mind.id, '00000000-0000-4000-8000-000000000000')), 404);
  });
});

describe('simulate', () => {
  it('409 snapshot_not_ready before any snapshot completes; 400 for unknown models; 404 for unknown minds', async () => {
    const { mind } = await newMind();
    const r = await failure(simulate(mind.id, 'Hello?'));
    assert.equal(r.status, 409);
    assert.equal(r.code, 'SNAPSHOT_NOT_READY');
    const bad = await failure(sdk.simulate({ mindId: mind.id, selectedSimulationModel: 'gpt-9' as 'mind-reasoner-pro', scenario: { message: 'Hi' } }));
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.details?.allowed, ['mind-reasoner-standard', 'mind-reasoner-pro']);
    assert.equal(await statusOf(simulate('00000000-0000-4000-8000-000000000000', 'x')), 404);
    assert.equal((await api.post('/simulate', { mindId: mind.id, scenario: {} })).status, 400);
    assert.equal((await api.post('/simulate', { mindId: mind.id, scenario: 'hello' })).status, 400);
  });

  it('answers with message, model, analysis, confidence and evidence for every accepted model name', async () => {
    const { mindId } = await snapshotOf(teamsVtt(sampleInterview()), 'a.vtt');
    for (const model of [undefined, 'mind-reasoner-pro', 'mind-reasoner-standard'] as const) {
      const body = await sdk.simulate({ mindId, selectedSimulationModel: model, scenario: { message: 'Would you hire a junior developer?' } });
      assert.equal(sdk.last?.status, 200);
      assert.equal(typeof body.message, 'string');
      assert.ok(body.message.length > 0);
      assert.ok(['mind-reasoner-standard', 'mind-reasoner-pro'].includes(body.model));
      for (const k of ['thinking', 'feeling', 'saying', 'acting'] as const) assert.equal(typeof body.analysis[k], 'string');
      assert.ok(body.confidence >= 0 && body.confidence <= 1);
      assert.ok(Array.isArray(body.evidence));
    }
    const models = await sdk.models.list();
    assert.deepEqual(models.map((m) => m.id).sort(), ['mind-reasoner-pro', 'mind-reasoner-standard']);
  });

  it('delete removes the mind with its snapshots, memories and files', async () => {
    const { mindId, id } = await snapshotOf(teamsVtt(sampleInterview()), 'a.vtt');
    assert.equal((await api.del(`/minds/${mindId}`)).status, 204);
    assert.equal(await statusOf(sdk.snapshots.status(mindId, id)), 404);
    assert.equal(await statusOf(simulate(mindId, 'x')), 404);
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = path.join(srv.dataDir, 'blobs', 'artifacts', mindId);
    assert.deepEqual(fs.existsSync(dir) ? fs.readdirSync(dir) : [], []);
  });
});

describe('logs', () => {
  it('never contain transcript text, API keys or signatures', () => {
    const logs = srv.logs().split('\n').filter((l) => l.startsWith('{'));
    assert.ok(logs.length > 20, 'the service logged requests');
    for (const line of logs) {
      assert.doesNotMatch(line, /kilometres|decaf|whiteboard|four-person startup/, 'no transcript text');
      assert.doesNotMatch(line, /msk_[0-9a-f]{8}_/, 'no API key');
      assert.doesNotMatch(line, /signature=/, 'no URL signature');
    }
  });
});
