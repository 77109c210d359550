/**
 * Panels (`/panels`) through the typed SDK: every question type end to end on the in-process
 * worker, abstention when the minds never talk about the subject, distributions equal to the
 * answer rows, CSV equal to JSON, per-tag segments, cancel mid-run, delete, a deleted mind's
 * answers erased, both prefixes, and every client mistake answered with a clear error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Panel, PanelAnswer } from '@mindsim/sdk';
import { client, type Client } from '../../testkit/http.ts';
import { failure, type TestSdk, interviewMind } from '../../testkit/sdk.ts';
import { SAM_QUESTIONS } from '../../testkit/panels.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { waitUntil } from '../../testkit/wait.ts';

let srv: Service;
let sdk: TestSdk;
let api: Client;
let other: { sdk: TestSdk; api: Client };
/** Two minds from the same interview, tagged apart, and one with nothing to answer from. */
const minds = { enterprise: '', startup: '', empty: '' };

const STANDARD = 'mind-reasoner-standard';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  const b = await srv.admin.createAccount('panel-other@example.com', 'standard');
  other = { sdk: srv.sdk(b.apiKey), api: client(srv.api, b.apiKey) };
  minds.enterprise = await interviewMind(sdk, 'Sam Okafor', ['Enterprise']);
  minds.startup = await interviewMind(sdk, 'Sam Twin', ['startup']);
  minds.empty = (await sdk.minds.create({ name: 'Nobody Yet', tags: ['enterprise'] })).mind.id;
});
after(() => srv?.close());

const QUESTIONS = SAM_QUESTIONS;

const byId = (p: Panel, id: string) => {
  const r = p.results?.find((q) => q.questionId === id);
  assert.ok(r, `no result for ${id}`);
  return r;
};

async function allAnswers(s: TestSdk, panelId: string, pageSize = 4): Promise<PanelAnswer[]> {
  const out: PanelAnswer[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await s.panels.answers(panelId, { limit: pageSize, offset });
    out.push(...page.answers);
    if (page.answers.length < pageSize) return out;
  }
}

describe('a panel chosen by tags, every question type', () => {
  let panel: Panel;
  let answers: PanelAnswer[];

  before(async () => {
    const created = await sdk.panels.create({ name: 'Remote work pulse', tags: ['enterprise', 'Startup'], questions: QUESTIONS, selectedSimulationModel: STANDARD });
    assert.equal(sdk.last?.status, 202);
    assert.equal(created.panel.status, 'queued');
    assert.equal(created.panel.minds, 2);
    assert.equal(created.panel.total, 2 * QUESTIONS.length);
    assert.deepEqual(created.panel.skippedMinds, [{ mindId: minds.empty, name: 'Nobody Yet', reason: 'no_completed_snapshot' }]);
    panel = await sdk.panels.wait(created.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
    answers = await allAnswers(sdk, panel.id);
  });

  it('completes with every answer stored once', () => {
    assert.equal(panel.status, 'completed');
    assert.deepEqual([panel.done, panel.total, panel.mindsDone, panel.mindsFailed], [12, 12, 2, 0]);
    assert.ok(panel.startedAt && panel.finishedAt);
    assert.equal(answers.length, 12);
    assert.equal(new Set(answers.map((a) => `${a.mindId}/${a.questionId}`)).size, 12);
  });

  it('answers each type from the person’s words: the option, the options, the scale point, the number, the words', () => {
    for (const mindId of [minds.enterprise, minds.startup]) {
      const of = (q: string) => answers.find((a) => a.mindId === mindId && a.questionId === q) as PanelAnswer;
      assert.deepEqual([of('where').status, of('where').choices], ['answered', ['Remote, from home']]);
      assert.equal(of('where').value, null);
      const hiring = of('hiring');
      assert.equal(hiring.status, 'answered');
      assert.ok(hiring.choices.includes('Curiosity'), hiring.choices.join());
      assert.ok(!hiring.choices.includes('A famous university degree'), hiring.choices.join());
      assert.equal(of('remote-love').status, 'answered');
      assert.ok((of('remote-love').value ?? 0) >= 4, String(of('remote-love').value));
      assert.deepEqual([of('coffee').status, of('coffee').value], ['answered', 2]);
      assert.equal(of('burnout').status, 'answered');
      assert.match(of('burnout').saying, /evenings|burnout/);
      for (const a of [of('where'), hiring, of('coffee'), of('burnout')]) {
        assert.ok(a.evidence.length > 0 && a.confidence > 0, `${a.questionId} has evidence`);
        assert.ok(a.evidence.every((e) => e.text.length > 0));
      }
    }
  });

  it('abstains openly when the minds never talk about the subject', () => {
    const football = answers.filter((a) => a.questionId === 'football');
    assert.deepEqual(football.map((a) => [a.status, a.choices, a.value]), [['no_evidence', [], null], ['no_evidence', [], null]]);
    const r = byId(panel, 'football');
    assert.deepEqual([r.answered, r.noEvidence, r.responses], [0, 2, 2]);
    assert.deepEqual(r.distribution?.map((d) => d.count), [0, 0, 0]);
  });

  it('distributions equal the answer rows: counts, shares, confidence-weighted shares, mean and median', () => {
    for (const r of panel.results ?? []) {
      const rows = answers.filter((a) => a.questionId === r.questionId);
      const answered = rows.filter((a) => a.status === 'answered');
      assert.equal(r.responses, rows.length);
      assert.equal(r.answered, answered.length);
      assert.equal(r.noEvidence, rows.length - answered.length);
      const weight = answered.reduce((s, a) => s + a.confidence, 0);
      for (const d of r.distribution ?? []) {
        const picked = answered.filter((a) => (d.value === undefined ? a.choices.includes(d.option) : a.value === d.value));
        assert.equal(d.count, picked.length, `${r.questionId}/${d.option}`);
        assert.ok(Math.abs(d.share - (answered.length ? picked.length / answered.length : 0)) < 1e-3);
        assert.ok(Math.abs(d.weightedShare - (weight ? picked.reduce((s, a) => s + a.confidence, 0) / weight : 0)) < 1e-3);
      }
      if (r.type === 'likert' || r.type === 'number') {
        const values = answered.map((a) => a.value as number);
        assert.equal(r.mean, values.length ? values.reduce((s, v) => s + v, 0) / values.length : null);
      } else assert.equal(r.mean, null);
    }
    const likert = byId(panel, 'remote-love');
    assert.deepEqual(likert.distribution?.map((d) => [d.option, d.value]), [['Not at all', 1], ['A little', 2], ['Somewhat', 3], ['A lot', 4], ['Completely', 5]]);
    assert.equal(byId(panel, 'coffee').median, 2);
    assert.equal(byId(panel, 'burnout').distribution, null);
  });

  it('gives the results per selection tag (case-insensitive), over the minds carrying it', () => {
    assert.deepEqual(panel.segments?.map((s) => [s.tag, s.minds]), [['enterprise', 1], ['Startup', 1]]);
    for (const segment of panel.segments ?? []) {
      const where = segment.questions.find((q) => q.questionId === 'where');
      assert.deepEqual([where?.responses, where?.distribution?.[0]?.count], [1, 1]);
    }
  });

  it('drills down from a bar to its answers: a question and one option, or no_evidence', async () => {
    const remote = await sdk.panels.answers(panel.id, { questionId: 'where', option: 'Remote, from home' });
    assert.equal(remote.count, 2);
    assert.ok(remote.answers.every((a) => a.questionId === 'where' && a.choices.includes('Remote, from home')));
    assert.equal((await sdk.panels.answers(panel.id, { questionId: 'where', option: 'In an office' })).count, 0);
    assert.equal((await sdk.panels.answers(panel.id, { status: 'no_evidence' })).count, 2);
    assert.equal((await sdk.panels.answers(panel.id, { questionId: 'coffee', value: 2 })).count, 2);
    assert.equal((await sdk.panels.answers(panel.id, { mindId: minds.startup })).count, QUESTIONS.length);
  });

  it('exports CSV with exactly the rows of the JSON answers', async () => {
    const csv = await sdk.panels.answersCsv(panel.id);
    assert.match(sdk.last?.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(sdk.last?.headers.get('content-disposition') ?? '', /attachment; filename="panel-.+\.csv"/);
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, answers.length);
    rows.forEach((row, i) => {
      const a = answers[i] as PanelAnswer;
      assert.deepEqual(
        [row.mind_id, row.mind_name, row.question_id, row.question, row.type, row.status, row.choices, row.value, Number(row.confidence), row.saying],
        [a.mindId, a.mindName, a.questionId, a.question, a.type, a.status, a.choices.join('; '), a.value === null ? '' : String(a.value), a.confidence, a.saying],
      );
      assert.equal(row.evidence?.split(' | ').filter(Boolean).length, a.evidence.length);
    });
    const filtered = parse(await sdk.panels.answersCsv(panel.id, { questionId: 'football' }), { columns: true }) as unknown[];
    assert.equal(filtered.length, 2);
  });

  it('lists the panel, newest first, without results; the same under /api/mindsim', async () => {
    const list = await sdk.panels.list();
    assert.ok(list.count >= 1);
    const listed = list.panels.find((p) => p.id === panel.id);
    assert.equal(listed?.status, 'completed');
    assert.equal(listed?.results, undefined);
    const hosted = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
    const r = await hosted.get(`/panels/${panel.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.panel.done, 12);
  });

  it('keeps another account out: 404 for every route, nothing listed', async () => {
    for (const call of [
      other.sdk.panels.get(panel.id),
      other.sdk.panels.answers(panel.id),
      other.sdk.panels.answersCsv(panel.id),
      other.sdk.panels.cancel(panel.id),
      other.sdk.panels.delete(panel.id),
    ]) {
      const err = await failure(call);
      assert.deepEqual([err.status, err.code], [404, 'PANEL_NOT_FOUND']);
    }
    assert.equal((await other.sdk.panels.list()).count, 0);
    const err = await failure(other.sdk.panels.create({ mindIds: [minds.enterprise], questions: QUESTIONS }));
    assert.deepEqual([err.status, err.code], [404, 'MIND_NOT_FOUND']);
    assert.equal((await failure(other.sdk.panels.create({ tags: ['enterprise'], questions: QUESTIONS }))).code, 'PANEL_NO_MINDS');
  });

  it('refuses to cancel a finished panel (409) and deletes it with its answers', async () => {
    const err = await failure(sdk.panels.cancel(panel.id));
    assert.deepEqual([err.status, err.code], [409, 'PANEL_FINISHED']);
    const copy = await sdk.panels.create({ mindIds: [minds.enterprise], questions: QUESTIONS.slice(0, 1), selectedSimulationModel: STANDARD });
    await sdk.panels.wait(copy.panel.id, { intervalMs: 20, maxIntervalMs: 100 });
    assert.deepEqual(await sdk.panels.delete(copy.panel.id), { message: 'Panel deleted successfully', panelId: copy.panel.id });
    assert.equal((await failure(sdk.panels.get(copy.panel.id))).status, 404);
    assert.equal((await failure(sdk.panels.answers(copy.panel.id))).status, 404);
    assert.equal((await failure(sdk.panels.delete(copy.panel.id))).status, 404);
  });
});

describe('a likert scale labelled at its two ends only', () => {
  it('is accepted, and its results name the minimum and the maximum, the points between by their numbers', async () => {
    const created = await sdk.panels.create({
      name: 'Endpoint anchors',
      mindIds: [minds.enterprise],
      questions: [{ id: 'remote', text: 'How much do you enjoy working from home?', type: 'likert', scale: { min: 1, max: 5, labels: ['not at all', 'completely'] } }],
      selectedSimulationModel: STANDARD,
    });
    assert.equal(sdk.last?.status, 202);
    const done = await sdk.panels.wait(created.panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
    const options = byId(done, 'remote').distribution?.map((d) => d.option);
    assert.deepEqual(options, ['not at all', '2', '3', '4', 'completely']);
  });
});

describe('cancel mid-run', () => {
  it('stops the units not yet stored; the answers stored so far are kept, whole minds only', async () => {
    const many = await Promise.all(['Ann', 'Ben', 'Cleo', 'Dev'].map((n) => interviewMind(sdk, `${n} Okafor`, ['cancel-me'])));
    const questions = Array.from({ length: 120 }, (_, i) => ({ id: `q${i}`, text: `How many cups of coffee do you drink a day? (${i})`, type: 'number' as const }));
    const { panel } = await sdk.panels.create({ tags: ['cancel-me'], questions, selectedSimulationModel: STANDARD });
    assert.equal(panel.minds, many.length);
    await waitUntil(async () => (await sdk.panels.get(panel.id)).panel.done > 0, { what: 'the panel started', intervalMs: 5 });
    const cancelled = (await sdk.panels.cancel(panel.id)).panel;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.finishedAt);
    // The worker lets go of every unit of the panel: the one it was running ends, the queued ones are dropped.
    const unfinished = () =>
      srv.ctx.store.db.selectFrom('jobs').select('id').where('payload', 'like', `%${panel.id}%`).where('state', 'in', ['queued', 'running']).execute().then((r) => r.length);
    await waitUntil(async () => (await unfinished()) === 0, { what: "no unit of the cancelled panel queued or running" });
    const after = (await sdk.panels.get(panel.id)).panel;
    assert.equal(after.status, 'cancelled');
    assert.ok(after.done < after.total, `${after.done} of ${after.total}`);
    assert.equal(after.done % questions.length, 0, 'only whole minds are stored');
    assert.equal(after.done, after.mindsDone * questions.length);
    assert.equal((await sdk.panels.get(panel.id)).panel.done, after.done, 'nothing is added after the cancel');
  });
});

describe('a deleted mind', () => {
  it('leaves every panel with its answers erased', async () => {
    const gone = await interviewMind(sdk, 'Temporary Sam', []);
    const { panel } = await sdk.panels.create({ mindIds: [gone, minds.enterprise], questions: QUESTIONS.slice(0, 2), selectedSimulationModel: STANDARD });
    await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100 });
    await sdk.minds.delete(gone);
    const after = (await sdk.panels.get(panel.id)).panel;
    assert.deepEqual([after.minds, after.done, after.total], [1, 2, 2]);
    assert.ok((await allAnswers(sdk, panel.id)).every((a) => a.mindId === minds.enterprise));
  });
});

describe('client mistakes get a clear error and change nothing', () => {
  const base = { questions: QUESTIONS.slice(0, 1) };
  const cases: Array<[string, unknown, number, string]> = [
    ['no minds chosen', { questions: QUESTIONS.slice(0, 1) }, 400, 'PANEL_SELECTION_REQUIRED'],
    ['no questions', { tags: ['enterprise'], questions: [] }, 400, 'VALIDATION_FAILED'],
    ['an unknown type', { tags: ['enterprise'], questions: [{ text: 'Hm?', type: 'ranking' }] }, 400, 'VALIDATION_FAILED'],
    ['single without options', { tags: ['enterprise'], questions: [{ text: 'Which?', type: 'single' }] }, 400, 'INVALID_QUESTION'],
    ['one option only', { tags: ['enterprise'], questions: [{ text: 'Which?', type: 'multiple', options: ['Only'] }] }, 400, 'INVALID_QUESTION'],
    ['the same option twice', { tags: ['enterprise'], questions: [{ text: 'Which?', type: 'single', options: ['Yes', 'yes'] }] }, 400, 'INVALID_QUESTION'],
    ['options on a likert question', { tags: ['enterprise'], questions: [{ text: 'How much?', type: 'likert', options: ['a', 'b'] }] }, 400, 'INVALID_QUESTION'],
    ['labels that do not fit the scale', { tags: ['enterprise'], questions: [{ text: 'How much?', type: 'likert', scale: { min: 1, max: 3, labels: ['low'] } }] }, 400, 'INVALID_QUESTION'],
    ['three labels for five points (neither one per point nor its two ends)', { tags: ['enterprise'], questions: [{ text: 'How much?', type: 'likert', scale: { min: 1, max: 5, labels: ['low', 'mid', 'high'] } }] }, 400, 'INVALID_QUESTION'],
    ['a scale upside down', { tags: ['enterprise'], questions: [{ text: 'How much?', type: 'likert', scale: { min: 5, max: 1 } }] }, 400, 'INVALID_QUESTION'],
    ['two questions with one id', { tags: ['enterprise'], questions: [{ id: 'a', text: 'One?', type: 'open' }, { id: 'a', text: 'Two?', type: 'open' }] }, 400, 'INVALID_QUESTION'],
    ['an unknown model', { tags: ['enterprise'], questions: QUESTIONS.slice(0, 1), selectedSimulationModel: 'gpt-9' }, 400, 'UNKNOWN_MODEL'],
    ['a mind id that is not a uuid', { ...base, mindIds: ['nope'] }, 400, 'VALIDATION_FAILED'],
    ['an unknown mind', { ...base, mindIds: [UNKNOWN] }, 404, 'MIND_NOT_FOUND'],
    ['a tag nobody carries', { tags: ['no-such-tag'], questions: QUESTIONS.slice(0, 1) }, 400, 'PANEL_NO_MINDS'],
    ['minds with nothing to answer from', { mindIds: [] as string[], questions: QUESTIONS.slice(0, 1), ready: false }, 409, 'NO_READY_MINDS'],
  ];

  for (const [what, body, status, code] of cases) {
    it(`${what}: ${status} ${code}`, async () => {
      const { ready, ...sent } = body as { ready?: boolean; mindIds?: string[] };
      if (ready === false) sent.mindIds = [minds.empty];
      const before = (await sdk.panels.list()).count;
      const r = await api.post('/panels', sent);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.code, code);
      assert.equal(typeof r.body.message, 'string');
      assert.equal((await sdk.panels.list()).count, before);
    });
  }

  it('text holding U+0000 anywhere (body, query, path): 400 INVALID_CHARACTERS naming the field (PostgreSQL cannot store it; the same answer on SQLite)', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/minds', { name: 'Nul\u0000Name' }, 'body.name'],
      ['POST', '/panels', { tags: ['enterprise'], questions: [{ text: 'Why\u0000?', type: 'open' }] }, 'body.questions.0.text'],
      ['POST', '/panels', { tags: ['enterprise'], questions: [{ text: 'Which?', type: 'single', options: ['a', 'b\u0000'] }] }, 'body.questions.0.options.1'],
      ['GET', '/minds/search?query=a%00b', undefined, 'query.query'],
      ['GET', '/minds/a%00b/snapshots', undefined, 'params.mindId'],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await api.call(method, path, body);
      assert.equal(r.status, 400, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.deepEqual([r.body.code, r.body.details?.field], ['INVALID_CHARACTERS', field]);
    }
    assert.equal((await sdk.minds.search('Nul')).count, 0);
  });

  it('malformed JSON: 400, never 500', async () => {
    const r = await api.post('/panels', '{"tags": ["enterprise"], "questions": [', { 'content-type': 'application/json' });
    assert.equal(r.status, 400);
  });

  it('too many answers (minds × questions beyond PANEL_MAX_ANSWERS): 413 with the figures', async () => {
    const small = await startService({ PANEL_MAX_ANSWERS: '100' });
    try {
      const s = small.sdk();
      const id = await interviewMind(s, 'Big Panel', []);
      const questions = Array.from({ length: 101 }, (_, i) => ({ text: `Question ${i}?`, type: 'open' as const }));
      const err = await failure(s.panels.create({ mindIds: [id], questions }));
      assert.deepEqual([err.status, err.code], [413, 'PANEL_TOO_LARGE']);
      assert.deepEqual(err.details, { limit: 100, answers: 101, minds: 1, questions: 101 });
      assert.equal((await s.panels.list()).count, 0);
      assert.equal((await s.panels.create({ mindIds: [id], questions: questions.slice(0, 100) })).panel.total, 100);
    } finally {
      await small.close();
    }
  });

  it('unknown ids and questions: 404 / 400', async () => {
    assert.equal((await failure(sdk.panels.get(UNKNOWN))).status, 404);
    assert.equal((await api.get('/panels/not-a-uuid')).status, 400);
    const { panels } = await sdk.panels.list({ limit: 1 });
    const err = await failure(sdk.panels.answers(panels[0]?.id ?? UNKNOWN, { questionId: 'nope' }));
    assert.deepEqual([err.status, err.code], [400, 'UNKNOWN_QUESTION']);
    assert.equal((await api.get(`/panels/${panels[0]?.id}/answers?format=xml`)).status, 400);
    assert.equal((await api.get(`/panels/${panels[0]?.id}/answers?limit=0`)).status, 400);
  });
});
