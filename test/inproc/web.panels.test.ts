/**
 * The dashboard's panel pages, fetched like a browser without JavaScript: the paged list, a
 * panel's page (one SVG bar per option with the API's counts, the no-evidence bar and figure, the
 * table of the same numbers, per-tag segments), the live partial polled only while the panel
 * runs, the answers behind a bar, cancel and delete through the forms, the new-panel form, and
 * 404 for another account's panel or an unknown id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Panel } from '@mindsim/sdk';
import type { Worker } from '../../src/jobs/worker.ts';
import { type TestSdk, interviewMind } from '../../testkit/sdk.ts';
import { SAM_QUESTIONS } from '../../testkit/panels.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

let srv: Service;
let sdk: TestSdk;
let web: WebClient;
/** The service's worker, ours to stop and start: a panel stays queued while it is stopped. */
let worker: Worker;
let done: Panel;
const PASSWORD = 'a long enough password';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const QUESTIONS = SAM_QUESTIONS;

before(async () => {
  srv = await startService({ RUN_WORKER: 'false' });
  worker = srv.ctx.createWorker();
  worker.start();
  sdk = srv.sdk();
  const { email } = await srv.admin.setPassword(srv.ownerAccountId, PASSWORD);
  web = new WebClient(srv.baseUrl);
  assert.equal((await web.logIn(email, PASSWORD)).status, 303);
  await Promise.all([interviewMind(sdk, 'Sam Okafor', ['Enterprise']), interviewMind(sdk, 'Sam Twin', ['startup'])]);
  await sdk.minds.create({ name: 'Nobody Yet', tags: ['enterprise'] });
  const { panel } = await sdk.panels.create({ name: 'Remote work pulse', tags: ['enterprise', 'Startup'], questions: QUESTIONS });
  done = await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
  assert.equal(done.status, 'completed', JSON.stringify(done.error) + srv.logs().slice(-2000));
});
after(async () => {
  await worker?.stop();
  await srv?.close();
});

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** One question's section of the panel page. */
function sectionOf(html: string, questionId: string): string {
  const m = new RegExp(`<section class="panel question"[^>]*data-question="${questionId}">([\\s\\S]*?)</section>`).exec(html);
  assert.ok(m, `no section for ${questionId}`);
  return m[1] as string;
}

/** The bars of the SVG: kind, count and label, in order. */
const barsOf = (section: string) =>
  [...section.matchAll(/<rect [^>]*class="bar bar-(\w+)" data-count="(\d+)" data-label="([^"]*)"/g)].map((m) => ({ kind: m[1], count: Number(m[2]), label: unescape(m[3] as string) }));
/** The rows of the table fallback: label and count. */
const tableOf = (section: string) =>
  [...section.matchAll(/<tr data-kind="(\w+)"><th scope="row">(?:<a href="[^"]*">)?([^<]*)(?:<\/a>)?<\/th><td>(\d+)<\/td>/g)].map((m) => ({ kind: m[1], label: unescape(m[2] as string), count: Number(m[3]) }));
/** The links of the bars in the SVG (href, unescaped). */
const barLinks = (section: string) => [...section.matchAll(/<a href="([^"]*)" aria-label="[^"]*: list th/g)].map((m) => unescape(m[1] as string));
const answersIn = (html: string) => html.match(/data-testid="panel-answer"/g)?.length ?? 0;
const result = (id: string) => done.results?.find((r) => r.questionId === id) as NonNullable<Panel['results']>[number];

describe('panel pages in the dashboard', () => {
  it('lists the panel with its status and progress, linked from the nav', async () => {
    const page = await web.get('/panels');
    assert.equal(page.status, 200);
    assert.match(page.text, /<a href="\/panels" aria-current="page">Panels<\/a>/);
    const row = new RegExp(`<tr data-panel="${done.id}">([\\s\\S]*?)</tr>`).exec(page.text)?.[1] ?? '';
    assert.match(row, new RegExp(`<a href="/panels/${done.id}">Remote work pulse</a>`));
    assert.match(row, /status-completed">completed</);
    assert.match(row, /<progress max="12" value="12"[^>]*>100%<\/progress> <span>12\/12<\/span>/);
  });

  it('draws one bar per option with the API’s counts, the no-evidence bar and figure, and the same numbers as a table', async () => {
    const page = await web.get(`/panels/${done.id}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /hx-get|hx-trigger/, 'a final panel is not polled');
    assert.match(page.text, /data-testid="panel-status">completed</);
    assert.match(page.text, /data-testid="panel-progress">12 of 12</);
    assert.match(page.text, /1 mind was left out[\s\S]*Nobody Yet/);
    for (const r of done.results ?? []) {
      const section = sectionOf(page.text, r.questionId);
      const bars = barsOf(section);
      const expected = r.distribution
        ? r.distribution.map((d) => ({ kind: 'option', count: d.count, label: r.type === 'likert' ? `${d.value} · ${d.option}` : d.option }))
        : r.type === 'open'
          ? [{ kind: 'answered', count: r.answered, label: 'Answered' }]
          : null;
      if (expected) assert.deepEqual(bars.slice(0, -1), expected, r.questionId);
      assert.deepEqual(bars.at(-1), { kind: 'abstain', count: r.noEvidence, label: 'No evidence' }, `${r.questionId}: the abstention bar`);
      assert.match(section, new RegExp(`data-testid="no-evidence">${r.noEvidence}<`));
      assert.deepEqual(tableOf(section), bars, `${r.questionId}: the table holds the chart's numbers`);
      assert.match(section, /<title id="panel-q-\d+-chart">Bar chart of the answers/);
      assert.equal(section.match(/<title>/g)?.length, bars.length, 'every bar has its title');
    }
    // (The counts themselves are the engine's, checked by api.panels; the abstention is what the page must show apart.)
    assert.deepEqual(barsOf(sectionOf(page.text, 'football')).map((b) => b.count), [0, 0, 0, 2]);
    // A number: its figures, and a bar per value (each a link to its answers).
    const coffee = sectionOf(page.text, 'coffee');
    assert.match(coffee, /<dt>Mean<\/dt><dd>2<\/dd>[\s\S]*<dt>Median<\/dt><dd>2<\/dd>/);
    assert.deepEqual(barsOf(coffee), [{ kind: 'option', count: 2, label: '2' }, { kind: 'abstain', count: result('coffee').noEvidence, label: 'No evidence' }]);
    // Per tag: a table per selection tag.
    for (const tag of ['enterprise', 'Startup']) assert.match(page.text, new RegExp(`<table aria-labelledby="segment-\\d" data-segment="${tag}">`));
  });

  it('links every bar to its answers: the option’s, the point’s, the value’s, the abstentions', async () => {
    const page = await web.get(`/panels/${done.id}`);
    const hiring = barLinks(sectionOf(page.text, 'hiring'));
    assert.deepEqual(hiring, [
      `/panels/${done.id}/answers?questionId=hiring&option=Curiosity`,
      `/panels/${done.id}/answers?questionId=hiring&option=Clear+writing`,
      `/panels/${done.id}/answers?questionId=hiring&option=A+famous+university+degree`,
      `/panels/${done.id}/answers?questionId=hiring&status=no_evidence`,
    ]);
    const curiosity = await web.get(hiring[0] as string);
    assert.equal(curiosity.status, 200);
    const count = result('hiring').distribution?.[0]?.count ?? 0;
    assert.equal(count, 2);
    assert.equal(answersIn(curiosity.text), count);
    assert.match(curiosity.text, /<h1>Answers to “What do you look for first when you hire engineers\?”<\/h1>/);
    assert.match(curiosity.text, /Minds that chose “Curiosity”: <strong>2<\/strong> answers/);
    assert.equal(curiosity.text.match(/data-testid="answer-choice">[^<]*Curiosity/g)?.length, 2);
    assert.ok((curiosity.text.match(/data-testid="evidence">“[^”]+”/g)?.length ?? 0) >= 2, 'the evidence passages are shown');
    assert.match(curiosity.text, /data-testid="answer-confidence">\d+%</);
    assert.match(curiosity.text, /<a href="\/minds\/[0-9a-f-]{36}">Sam Okafor<\/a>/);

    const likert = barLinks(sectionOf(page.text, 'remote-love'));
    assert.equal(likert[3], `/panels/${done.id}/answers?questionId=remote-love&value=4`);
    const point = result('remote-love').distribution?.find((d) => d.value === 4)?.count ?? 0;
    const a4 = await web.get(likert[3] as string);
    assert.equal(answersIn(a4.text), point);
    if (point) assert.match(a4.text, /data-testid="answer-choice">4 \(A lot\)</);

    const abstained = await web.get(barLinks(sectionOf(page.text, 'football')).at(-1) as string);
    assert.equal(answersIn(abstained.text), 2);
    assert.match(abstained.text, /Minds that had no evidence to answer from: <strong>2<\/strong>/);
    assert.equal(abstained.text.match(/No passage of this person bears on the question/g)?.length, 2);

    const coffee = await web.get(barLinks(sectionOf(page.text, 'coffee'))[0] as string);
    assert.equal(answersIn(coffee.text), 2);
    // Every answer of the panel, paged by 20.
    const all = await web.get(`/panels/${done.id}/answers`);
    assert.equal(answersIn(all.text), 12);
    assert.equal(answersIn((await web.get(`/panels/${done.id}/answers?page=2`)).text), 0);
    // A filter the page cannot take is a 400 page, never a 500.
    assert.equal((await web.get(`/panels/${done.id}/answers?questionId=nope`)).status, 400);
    assert.equal((await web.get(`/panels/${done.id}/answers?value=abc`)).status, 400);
    assert.equal((await web.get(`/panels/${done.id}/answers?status=maybe`)).status, 400);
  });

  it('polls the live part while the panel is queued, lists pages of panels, and cancels through the form', async () => {
    await worker.stop();
    const queued: string[] = [];
    try {
      for (let i = 0; i < 26; i++) queued.push((await sdk.panels.create({ name: `Queued ${i}`, tags: ['startup'], questions: QUESTIONS.slice(0, 1) })).panel.id);
      const id = queued.at(-1) as string;
      const page = await web.get(`/panels/${id}`);
      assert.match(page.text, new RegExp(`<div id="panel-live" hx-get="/panels/${id}/live" hx-trigger="every 1s" hx-swap="outerHTML"`));
      assert.match(page.text, /data-testid="panel-status">queued</);
      assert.match(page.text, /data-testid="panel-progress">0 of 1</);
      const live = await web.request('GET', `/panels/${id}/live`, undefined, { 'hx-request': 'true' });
      assert.equal(live.status, 200);
      assert.match(live.text, /^<div id="panel-live"[^>]*hx-trigger="every 1s"/);
      assert.doesNotMatch(live.text, /<html/);
      assert.match((await web.get(`/panels/${done.id}/live`)).text, /^<div id="panel-live" data-status="completed">/, 'a final panel is not polled');

      // 27 panels: 25 on the first page, newest first, the rest on the second.
      const first = await web.get('/panels');
      assert.equal(first.text.match(/<tr data-panel=/g)?.length, 25);
      assert.ok(first.text.indexOf('Queued 25') < first.text.indexOf('Queued 24'));
      assert.match(first.text, /<a href="\/panels\?page=2">Older panels →<\/a>/);
      const second = await web.get('/panels?page=2');
      assert.equal(second.text.match(/<tr data-panel=/g)?.length, 2);
      assert.match(second.text, new RegExp(`data-panel="${done.id}"`));
      assert.match(second.text, /<a href="\/panels">← Newer panels<\/a>/);

      // Cancel: the form carries the CSRF token; without it the post is refused.
      assert.match(page.text, new RegExp(`<form method="post" action="/panels/${id}/cancel" data-confirm=`));
      assert.equal((await web.request('POST', `/panels/${id}/cancel`, {})).status, 403);
      const cancelled = await web.submit(`/panels/${id}/cancel`, {}, `/panels/${id}`);
      assert.equal(cancelled.status, 303);
      assert.equal(cancelled.headers.get('location'), `/panels/${id}`);
      const after = await web.get(`/panels/${id}`);
      assert.match(after.text, /data-testid="panel-status">cancelled</);
      assert.doesNotMatch(after.text, /hx-get|hx-trigger|\/cancel"/);
      assert.equal((await sdk.panels.get(id)).panel.status, 'cancelled');
      const again = await web.submit(`/panels/${id}/cancel`, {}, `/panels/${id}`);
      assert.equal(again.status, 409);
      assert.match(again.text, /only a queued or running panel can be cancelled/);
    } finally {
      for (const id of queued) await sdk.panels.delete(id);
      worker.start();
    }
  });

  it('deletes a panel after its confirmation page', async () => {
    const { panel } = await sdk.panels.create({ name: 'To delete', tags: ['startup'], questions: QUESTIONS.slice(0, 2) });
    await sdk.panels.wait(panel.id, { intervalMs: 20, timeoutMs: 30_000 });
    const confirm = await web.get(`/panels/${panel.id}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /<h1>Delete “To delete”\?<\/h1>/);
    assert.match(confirm.text, /the 2 answers stored for it/);
    const r = await web.submit(`/panels/${panel.id}/delete`, {}, `/panels/${panel.id}/delete`);
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/panels');
    assert.equal((await web.get(`/panels/${panel.id}`)).status, 404);
    assert.equal((await sdk.panels.list()).panels.some((p) => p.id === panel.id), false);
  });

  it('starts a panel from the form, and shows what is wrong with a bad one', async () => {
    const form = await web.get('/panels/new');
    assert.equal(form.status, 200);
    assert.match(form.text, /<textarea id="panel-questions" name="questions"/);
    const bad = await web.submit('/panels', { tags: 'startup', questions: '[{"text": "Hm?"' }, '/panels/new');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /The questions are not valid JSON/);
    assert.match(bad.text, /value="startup"/, 'the form keeps what was typed');
    const wrong = await web.submit('/panels', { tags: 'startup', questions: '[{"text": "Which?", "type": "single", "options": ["Only one"]}]' }, '/panels/new');
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /needs at least two options/);
    const none = await web.submit('/panels', { tags: 'no such tag', questions: '[{"text": "Why?", "type": "open"}]' }, '/panels/new');
    assert.equal(none.status, 400);
    assert.match(none.text, /No mind of this account carries the tags/);
    const ok = await web.submit('/panels', { name: 'From the form', tags: 'Enterprise', questions: JSON.stringify(QUESTIONS.slice(4, 5)) }, '/panels/new');
    assert.equal(ok.status, 303);
    const id = /^\/panels\/([0-9a-f-]{36})$/.exec(ok.headers.get('location') ?? '')?.[1] ?? '';
    const panel = await sdk.panels.wait(id, { intervalMs: 20, timeoutMs: 30_000 });
    assert.deepEqual([panel.name, panel.selection.tags, panel.minds, panel.questions[0]?.id], ['From the form', ['Enterprise'], 1, 'burnout']);
    await sdk.panels.delete(id);
  });

  it('answers 404 for another account’s panel and for an unknown or malformed id, on every page', async () => {
    const other = new WebClient(srv.baseUrl);
    assert.equal((await other.signUp('panels-other@example.com', PASSWORD)).status, 303);
    assert.doesNotMatch((await other.get('/panels')).text, new RegExp(done.id));
    for (const id of [done.id, UNKNOWN, 'not-a-uuid']) {
      const client = id === done.id ? other : web;
      for (const path of [`/panels/${id}`, `/panels/${id}/live`, `/panels/${id}/answers`, `/panels/${id}/answers?questionId=where&option=x`, `/panels/${id}/delete`]) {
        const r = await client.get(path);
        assert.equal(r.status, 404, `${path} (${id === done.id ? 'another account' : id})`);
        assert.match(r.text, /The panel was not found\./);
      }
      for (const path of [`/panels/${id}/cancel`, `/panels/${id}/delete`]) assert.equal((await client.submit(path, {}, '/panels')).status, 404, path);
    }
    assert.equal((await sdk.panels.get(done.id)).panel.status, 'completed', 'the panel is untouched');
  });
});
