import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (installed by .ci/run); playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const RESULTS = path.resolve(import.meta.dirname, '..', '..', 'test-results');

export const chromiumAvailable = () => fs.existsSync(CHROMIUM);

/** Launch flags from the workplace's architecture notes: no sandbox (root), no background networking. */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  // playwright gives every launch a fresh, empty --user-data-dir of its own (and refuses ours).
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

/** A full-page screenshot into test-results/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS, `${name}.png`), fullPage: true });
}

/** Form controls a user can reach that have no label (visible <label for>, wrapping label or aria-label). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('input, select, textarea')]
      .filter((el) => el.type !== 'hidden' && el.offsetParent !== null)
      .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** True when the page is wider than the viewport (something does not fit a phone). */
export function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

const AXE = fileURLToPath(import.meta.resolve('axe-core/axe.min.js'));

/**
 * WCAG 2 A/AA violations on the current page, found by axe-core injected into it: "rule: target"
 * lines. axe is evaluated through the DevTools protocol, which the page's CSP does not govern (an
 * inline <script> tag, as addScriptTag writes, is refused by it).
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(fs.readFileSync(AXE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
  return violations;
}

/**
 * Collects the page's Content-Security-Policy violations (Chromium reports each on the console):
 * the dashboard must need no inline script, style or eval.
 */
export function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|apply|load|evaluate|connect|frame)/i.test(m.text())) found.push(`${page.url()}: ${m.text()}`);
  });
  return found;
}

/** Logs in on the dashboard's login page and waits for the minds list it leads to. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/minds$/);
}
