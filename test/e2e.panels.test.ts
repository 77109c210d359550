import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CreatePanelRequest } from '@mindsim/sdk';
import type { Worker } from '../src/jobs/worker.ts';
import { accessibilityViolations, chromiumAvailable, cspViolations, launchBrowser, logIn, overflowsHorizontally, screenshot, unlabelledControls } from './support/browser.ts';
import { sampleInterview, teamsVtt } from '../testkit/fixtures.ts';
import { blobOf, waitFor, type TestSdk } from '../testkit/sdk.ts';
import { startService, type Service } from '../testkit/service.ts';

/**
 * The panel pages in Debian's chromium: a completed panel's page shows a bar chart per question,
 * a click on a bar lands on the answers behind it with their evidence; a queued panel's page
 * follows its progress without a reload (polled) until it completes, then stops polling. The
 * panels are made through the API (the SDK), the minds from the sample interview (Sam).
 * Screenshots go to test-results/.
 */
const skip = chromiumAvailable() ? false : 'chromium is not installed (.ci/run installs it)';

const QUESTIONS: CreatePanelRequest['questions'] = [
  { id: 'where', text: 'Do you prefer working remotely or in an office?', type: 'single', options: ['Remote, from home', 'In an office'] },
  { id: 'hiring', text: 'What do you look for first when you hire engineers?', type: 'multiple', options: ['Curiosity', 'Clear writing', 'A famous university degree'] },
  { id: 'remote-love', text: 'How much do you enjoy working from home?', type: 'likert', scale: { min: 1, max: 5, labels: ['Not at all', 'A little', 'Somewhat', 'A lot', 'Completely'] } },
  { id: 'coffee', text: 'How many cups of coffee do you drink a day?', type: 'number' },
  { id: 'burnout', text: 'How do you deal with burnout?', type: 'open' },
  { id: 'football', text: 'Which football club do you support?', type: 'single', options: ['Arsenal', 'Liverpool', 'Real Madrid'] },
];

describe('panel pages in a real browser', { skip }, () => {
  let srv: Service;
  let sdk: TestSdk;
  /** The service's worker, ours to stop and start: a panel stays queued while it is stopped. */
  let worker: Worker;
  let close: () => Promise<void>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let violations: string[] = [];
  const password = 'correct horse battery';

  before(async () => {
    srv = await startService({ RUN_WORKER: 'false' });
    worker = srv.ctx.createWorker();
    worker.start();
    sdk = srv.sdk();
    const { email } = await srv.admin.setPassword(srv.ownerAccountId, password);
    const mind = async (name: string, tags: string[]) => {
      const { mind: m } = await sdk.minds.create({ name, tags });
      const r = await sdk.snapshots.create(m.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
      assert.equal((await waitFor(sdk, m.id, r.mindAssessmentId)).status, 'completed');
    };
    const launched = launchBrowser();
    await Promise.all([mind('Sam Okafor', ['Enterprise']), mind('Sam Twin', ['Startup'])]);
    ({ browser, close } = await launched);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    violations = cspViolations(page);
    await logIn(page, srv.baseUrl, email, password);
  });
  after(async () => {
    await close?.();
    await worker?.stop();
    await srv?.close();
  });

  const labelled = async () => {
    assert.deepEqual(await unlabelledControls(page), [], `unlabelled controls on ${page.url()}`);
    assert.deepEqual(await accessibilityViolations(page), [], `axe-core on ${page.url()}`);
  };

  it('shows a completed panel as charts; a bar leads to its answers with their evidence', async () => {
    const { panel } = await sdk.panels.create({ name: 'Remote work pulse', tags: ['Enterprise', 'Startup'], questions: QUESTIONS });
    const results = (await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 })).results ?? [];
    /** The most chosen option of a question, as the API counts it. */
    const top = (id: string) => {
      const r = results.find((q) => q.questionId === id);
      const d = [...(r?.distribution ?? [])].sort((a, b) => b.count - a.count)[0];
      assert.ok(d && d.count > 0, `nobody answered ${id}`);
      return d;
    };

    await page.getByRole('link', { name: 'Panels' }).click();
    await page.waitForURL(/\/panels$/);
    await labelled();
    await screenshot(page, 'panels-01-list');
    await page.getByRole('link', { name: 'Remote work pulse' }).click();
    await page.waitForURL(new RegExp(`/panels/${panel.id}$`));
    await page.getByTestId('panel-status').filter({ hasText: 'completed' }).waitFor();
    assert.equal(await page.getByTestId('chart').count(), QUESTIONS.length);
    const where = page.locator('[data-question="where"]');
    assert.equal(await where.locator('rect.bar').count(), 3, 'two options and the no-evidence bar');
    assert.equal(await page.locator('[data-question="football"] [data-testid="no-evidence"]').innerText(), '2');
    // The table of the same numbers opens from under the chart.
    await where.getByText('The same numbers as a table').click();
    const chosen = top('where');
    assert.match(await where.getByTestId('chart-table').innerText(), new RegExp(`${chosen.option}\\s+${chosen.count}\\s+${Math.round(chosen.share * 100)}%`));
    await labelled();
    await screenshot(page, 'panels-02-panel');

    // A click on the most chosen hiring option's bar lists the minds that chose it, each with its evidence (Sam: curiosity).
    const hiring = top('hiring');
    await page.getByRole('link', { name: `${hiring.option} ${hiring.count} · ${Math.round(hiring.share * 100)}%: list ${hiring.count === 1 ? 'this answer' : 'these answers'}` }).click();
    await page.waitForURL(new RegExp(`/answers\\?questionId=hiring&option=${encodeURIComponent(hiring.option).replace(/%20/g, '\\+')}$`));
    await page.getByRole('heading', { name: /Answers to “What do you look for first/ }).waitFor();
    const answers = page.getByTestId('panel-answer');
    assert.equal(await answers.count(), hiring.count);
    for (let i = 0; i < hiring.count; i++) {
      assert.ok((await answers.nth(i).getByTestId('answer-choice').innerText()).includes(hiring.option));
      assert.ok((await answers.nth(i).getByTestId('evidence').count()) > 0, 'evidence is shown');
      assert.ok((await answers.nth(i).getByTestId('answer-saying').innerText()).trim().length > 0);
    }
    await labelled();
    await screenshot(page, 'panels-03-answers');

    // At phone width the pages fit without sideways scrolling.
    await page.setViewportSize({ width: 375, height: 812 });
    for (const path of [`/panels/${panel.id}`, new URL(page.url()).pathname + new URL(page.url()).search, '/panels', '/panels/new']) {
      await page.goto(`${srv.baseUrl}${path}`);
      assert.equal(await overflowsHorizontally(page), false, `${path} overflows at phone width`);
    }
    await screenshot(page, 'panels-04-phone-new');
    await page.setViewportSize({ width: 1280, height: 900 });
    await labelled();
  });

  it('follows a queued panel’s progress without a reload until it completes, then stops polling', async () => {
    await worker.stop();
    const { panel } = await sdk.panels.create({ name: 'Live panel', tags: ['Enterprise', 'Startup'], questions: QUESTIONS });
    await page.goto(`${srv.baseUrl}/panels/${panel.id}`);
    await page.getByTestId('panel-status').filter({ hasText: 'queued' }).waitFor();
    assert.equal(await page.getByTestId('panel-progress').innerText(), `0 of ${QUESTIONS.length * 2}`);
    await screenshot(page, 'panels-05-queued');
    // Every progress the page shows from now on, and a mark a reload would wipe out.
    await page.evaluate(() => {
      const w = window as unknown as { notReloaded: boolean; seen: string[] };
      w.notReloaded = true;
      w.seen = [];
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="panel-progress"]')?.textContent ?? '';
        if (w.seen.at(-1) !== text) w.seen.push(text);
      }).observe(document.body, { childList: true, subtree: true });
    });
    worker.start();
    await page.getByTestId('panel-status').filter({ hasText: 'completed' }).waitFor();
    const state = await page.evaluate(() => {
      const w = window as unknown as { notReloaded?: boolean; seen?: string[] };
      return { notReloaded: w.notReloaded, seen: w.seen ?? [] };
    });
    assert.equal(state.notReloaded, true, 'no reload');
    assert.equal(state.seen.at(-1), `${QUESTIONS.length * 2} of ${QUESTIONS.length * 2}`, state.seen.join(' → '));
    assert.equal(await page.locator('progress').evaluate((el) => (el as HTMLProgressElement).value), QUESTIONS.length * 2);
    assert.equal(await page.getByTestId('chart').count(), QUESTIONS.length, 'the charts arrive with the results');
    // Final: the live part no longer polls and the cancel button is gone.
    assert.equal(await page.locator('#panel-live').getAttribute('hx-get'), null);
    assert.equal(await page.getByRole('button', { name: 'Cancel the panel' }).count(), 0);
    await labelled();
    await screenshot(page, 'panels-06-completed-live');
    // Every page worked under the Content-Security-Policy.
    assert.deepEqual(violations, []);
  });
});
