/**
 * The default Content-Security-Policy in a real browser (docs/http.md
 * "Content-Security-Policy"): every page of the reference app — forms,
 * the dashboard with its token table, the failed-form round trip, the
 * built-in error page — loads with no violation report, its stylesheet
 * (and the error page's inline style, allowed by hash) applied; an inline
 * script injected into a page does not run.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import type { AuthService } from '../../runtime/auth/index.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../../runtime/config/content-security-policy.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

describe('Content-Security-Policy | the reference app in headless Chromium', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let browser: Browser;
  let page: Page;
  const consoleViolations: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('browser_csp');
    t = await createTestApp<Database>(app, { databaseUrl: database.url, env: referenceAppEnv });
    browser = await launchChromium();
    page = browser.page;
    // Every violation the page reports, from the first byte of each document.
    // (Browser code is passed as text: the tests compile without the DOM types.)
    await browser.context.addInitScript({
      content:
        "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) consoleViolations.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await database?.drop();
  });

  async function visit(path: string): Promise<number> {
    const res = await page.goto(`${t.url}${path}`);
    expect(res!.headers()['content-security-policy'], path).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    return res!.status();
  }

  async function violations(): Promise<string[]> {
    return [...(await page.evaluate<string[]>('window.__violations')), ...consoleViolations];
  }

  it('guest pages and the failed-form round trip: no violation, the stylesheet applies', async () => {
    for (const path of ['/login', '/register', '/forgot-password', '/notes/new']) {
      expect(await visit(path), path).toBe(200);
      expect(await violations(), path).toEqual([]);
      // app.css sets labels bold: the stylesheet from 'self' was allowed.
      expect(await page.evaluate<string>("getComputedStyle(document.querySelector('label')).fontWeight"), path).toBe('600');
    }
    await page.fill('#title', 'Un Titled');
    await Promise.all([page.waitForURL(`${t.url}/notes/new`), page.click('button[type="submit"]')]);
    expect(await page.isVisible('.errors-summary')).toBe(true);
    expect(await violations()).toEqual([]);
  });

  it('signed in: the dashboard with its inline forms (no style attributes needed)', async () => {
    const auth = t.running.services.auth as AuthService<unknown>;
    const email = `csp-${Date.now()}@example.test`;
    await t.db
      .insertInto('users')
      .values({
        name: 'Csp',
        email,
        password: await auth.hashPassword('correct horse battery'),
        admin: true,
        email_verified_at: new Date(),
      })
      .execute();
    await visit('/login');
    await page.fill('#email', email);
    await page.fill('#password', 'correct horse battery');
    await page.check('#remember');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('button[type="submit"]')]);
    await page.fill('#token-name', 'laptop');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('form[action="/tokens"] button[type="submit"]')]);
    expect(await page.locator('tr[data-token-id]').count()).toBe(1);
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('form.inline-form')).display")).toBe('inline');
    expect(await violations()).toEqual([]);
  });

  it('the built-in error page keeps its inline style (allowed by its hash)', async () => {
    expect(await visit('/no-such-page')).toBe(404);
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(246, 248, 250)');
    expect(await violations()).toEqual([]);
  });

  it('an inline script injected into a page does not run, and is reported', async () => {
    await visit('/login');
    await page.evaluate(
      "{ const s = document.createElement('script'); s.textContent = 'window.__inlineRan = true;'; document.body.append(s); }",
    );
    await expect.poll(() => page.evaluate<number>('window.__violations.length'), { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await page.evaluate<boolean>('window.__inlineRan === true')).toBe(false);
    consoleViolations.length = 0;
  });
});
