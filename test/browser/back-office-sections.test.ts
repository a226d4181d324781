/**
 * The back office in headless Chromium (docs/back-office.md): an admin
 * signs in, opens the home page and a section's list, creates a document
 * through the form — first failing (the round trip shows the errors and
 * keeps the values), then succeeding — and deletes it; every page loads
 * under the default Content-Security-Policy with no violation, its own
 * stylesheet applied, and no script needed.
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

describe('back office | in headless Chromium, under the CSP', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let browser: Browser;
  let page: Page;
  let adminId: number;
  const consoleViolations: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('browser_bo_sections');
    t = await createTestApp<Database>(app, { databaseUrl: database.url, env: referenceAppEnv });
    browser = await launchChromium();
    page = browser.page;
    await browser.context.addInitScript({
      content:
        "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) consoleViolations.push(m.text());
    });
    const auth = t.running.services.auth as AuthService<unknown>;
    await t.db
      .insertInto('users')
      .values({
        name: 'Admin',
        email: 'bo-admin@example.test',
        password: await auth.hashPassword('correct horse battery'),
        admin: true,
        email_verified_at: new Date(),
      })
      .execute();
    adminId = Number(
      (await t.db.selectFrom('users').select('id').where('email', '=', 'bo-admin@example.test').executeTakeFirstOrThrow()).id,
    );
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

  it('signs in, browses, creates through the form (a failed post first), and deletes', async () => {
    await visit('/login');
    await page.fill('#email', 'bo-admin@example.test');
    await page.fill('#password', 'correct horse battery');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('button[type="submit"]')]);
    await Promise.all([page.waitForURL(`${t.url}/admin`), page.click('a[href="/admin"]')]);
    // The back office's stylesheet applies (the header's dark background).
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('.bo-header')).backgroundColor")).toBe('rgb(35, 39, 47)');
    expect(await violations()).toEqual([]);

    expect(await visit('/admin/documents')).toBe(200);
    await Promise.all([page.waitForURL(`${t.url}/admin/documents/new`), page.click('a[href="/admin/documents/new"]')]);
    await page.fill('#f-owner_id', String(adminId));
    await page.fill('#f-slug', 'bad slug');
    await page.fill('#f-title', 'From the browser');
    await page.fill('#f-body', 'Body typed once.');
    await Promise.all([page.waitForURL(`${t.url}/admin/documents/new`), page.click('form.bo-form button[type="submit"]')]);
    expect(await page.isVisible('.errors-summary')).toBe(true);
    expect(await page.textContent('#slug-error')).toMatch(/slug/i);
    expect(await page.inputValue('#f-title')).toBe('From the browser');
    expect(await page.inputValue('#f-body')).toBe('Body typed once.');
    await page.fill('#f-slug', 'good-slug');
    await Promise.all([page.waitForURL(/\/admin\/documents\/\d+$/), page.click('form.bo-form button[type="submit"]')]);
    expect(await page.textContent('.status')).toMatch(/created/);
    expect(await page.textContent('h1')).toMatch(/^Documents \d+$/);

    await Promise.all([page.waitForURL(/\/admin\/documents\/\d+$/), page.click('form[action$="/delete"] button')]);
    expect(await page.textContent('h1')).toMatch(/\(deleted\)$/);
    const row = await t.db.selectFrom('documents').select(['slug', 'deleted_at']).executeTakeFirstOrThrow();
    expect(row.slug).toBe('good-slug');
    expect(row.deleted_at).not.toBeNull();
    expect(await violations()).toEqual([]);
  });
});
