import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { RetentionService } from '../../src/domain/retention.ts';
import { systemRuntime } from '../../src/kernel/runtime.ts';
import { client, fileForm, waitForSnapshot, type Client } from '../../testkit/http.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

/**
 * The mind answers from its corrections (issue 32, items 2 and 3), through POST /simulate: a
 * correction leads `saying` and the evidence on a paraphrase of its scenario and says it stands over
 * the transcript; an unrelated scenario's answer is unchanged; deleting it gives the transcript back
 * its word. Its export (corrections.csv, cells neutralised) and the retention sweep.
 */
let srv: Service;
let api: Client;
let mindId = '';

before(async () => {
  srv = await startService();
  api = client(srv.api, srv.apiKey);
  mindId = (await api.post('/minds', { name: 'Sam Okafor' })).body.mind.id;
  const up = await api.post(`/minds/${mindId}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'interview.vtt'));
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await waitForSnapshot(api, mindId, up.body.mindAssessmentId);
});
after(() => srv?.close());

const CORRECTED = 'These days I drink one cup a morning, and only decaf: my doctor talked me out of the rest.';

async function ask(message: string) {
  const r = await api.post('/simulate', { mindId, scenario: { message } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as { message: string; analysis: Record<string, string>; confidence: number; evidence: Array<Record<string, unknown>> };
}

describe('the mind answers from its corrections', () => {
  it('leads saying and the evidence on a paraphrase, says it is their own correction over the transcript; unrelated answers unchanged', async () => {
    const unrelated = ['How do you deal with burnout?', 'Would you hire a self-taught engineer?', 'What advice would you give your younger self?'];
    const before = await Promise.all(unrelated.map(ask));
    const coffeeBefore = await ask('How many cups of coffee do you drink a day?');
    assert.ok(coffeeBefore.evidence.every((e) => e.source === 'transcript' && typeof e.snapshotId === 'string' && e.correctionId === undefined), 'transcript evidence is marked as such');

    const created = await api.post(`/minds/${mindId}/corrections`, { scenario: 'How much coffee do you drink a day?', answer: CORRECTED });
    assert.equal(created.status, 201);
    const correctionId = created.body.correction.id as string;

    for (const paraphrase of ['How many cups of coffee do you drink a day?', 'How much coffee do you drink in a day?', 'how much coffee do you drink a day']) {
      const r = await ask(paraphrase);
      assert.equal(r.analysis.saying, CORRECTED, paraphrase);
      assert.equal(r.message, CORRECTED);
      assert.match(r.analysis.thinking ?? '', /own correction/);
      assert.match(r.analysis.thinking ?? '', /over what the transcript says/);
      assert.deepEqual({ ...r.evidence[0], score: 0 }, { text: CORRECTED, speaker: 'Sam Okafor', snapshotId: null, score: 0, source: 'correction', correctionId });
      assert.ok(r.evidence.slice(1).every((e) => e.source === 'transcript'), 'the transcript follows');
      assert.ok(r.confidence >= coffeeBefore.confidence);
    }
    const after = await Promise.all(unrelated.map(ask));
    assert.deepEqual(
      after.map((a) => [a.message, a.analysis, a.evidence]),
      before.map((b) => [b.message, b.analysis, b.evidence]),
      'a correction never changes the answer to an unrelated scenario',
    );

    // Streamed, the same answer part by part.
    const streamed = await fetch(`${srv.api}/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mindId, scenario: { message: 'How much coffee do you drink a day?' }, stream: true }),
    });
    const events = await streamed.text();
    assert.match(events, /event: part\ndata: \{"field":"saying","text":"These days I drink one cup/);
    assert.match(events, /event: evidence\ndata: \{"evidence":\[\{"text":"These days/);

    assert.equal((await api.del(`/minds/${mindId}/corrections/${correctionId}`)).status, 200);
    const again = await ask('How many cups of coffee do you drink a day?');
    assert.deepEqual([again.message, again.evidence], [coffeeBefore.message, coffeeBefore.evidence], 'deleted, the transcript answers again');
  });

  it("the export holds corrections.csv, a spreadsheet formula neutralised; another mind's are not in it", async () => {
    await api.post(`/minds/${mindId}/corrections`, { scenario: 'Your favourite formula?', answer: '=HYPERLINK("http://x")', note: 'from the review' });
    const otherMind = (await api.post('/minds', { name: 'Someone Else' })).body.mind.id as string;
    await api.post(`/minds/${otherMind}/corrections`, { scenario: 'Not theirs?', answer: 'Someone else entirely.' });
    const r = await fetch(`${srv.api}/minds/${mindId}/export`, { headers: { authorization: `Bearer ${srv.apiKey}` } });
    assert.equal(r.status, 200);
    const files = unzipSync(new Uint8Array(await r.arrayBuffer()));
    const rows = parseCsv(strFromU8(files['corrections.csv'] ?? assert.fail('no corrections.csv')), { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(
      rows.map((x) => [x.scenario, x.answer, x.note]),
      [['Your favourite formula?', '\'=HYPERLINK("http://x")', 'from the review']],
    );
    assert.match(rows[0]?.createdBy ?? '', /^key:/);
    const readme = JSON.parse(strFromU8(files['README.json'] ?? new Uint8Array())) as { files: Array<{ name: string; count: number }> };
    assert.equal(readme.files.find((f) => f.name === 'corrections.csv')?.count, 1);
  });

  it("the retention sweep erases corrections older than the account's retention, each logged", async () => {
    const b = await srv.admin.createAccount('corrections-retention@example.com', 'pro');
    const c = client(srv.api, b.apiKey);
    const mind = (await c.post('/minds', { name: 'Kept Briefly' })).body.mind.id as string;
    const old = (await c.post(`/minds/${mind}/corrections`, { scenario: 'Old?', answer: 'Old answer.' })).body.correction.id as string;
    assert.equal((await c.put('/account/privacy', { retentionDays: 30 })).status, 200);
    const later = { ...systemRuntime, now: () => new Date(Date.now() + 31 * 24 * 3600_000) };
    const report = await new RetentionService(srv.ctx.store, srv.ctx.services.snapshots, later).sweep();
    assert.ok(report.corrections >= 1, JSON.stringify(report));
    assert.equal((await c.get(`/minds/${mind}/corrections/${old}`)).status, 404);
    const log = (await c.get(`/audit?mindId=${mind}`)).body.entries as Array<{ action: string; actor: string; resourceId: string }>;
    assert.ok(log.some((e) => e.action === 'retention.erase_correction' && e.actor === 'system' && e.resourceId === old), JSON.stringify(log));
  });
});
